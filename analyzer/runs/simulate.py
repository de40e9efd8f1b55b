"""Monte Carlo cross-check: deal whole shoes and settle every bet on offer each round
(punto banco's by :mod:`analyzer.runs.dealer`, the bets of its ``[decision]`` raised as
:mod:`analyzer.runs.decided` plays them; another game's of the family by
:mod:`analyzer.runs.game_dealer`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
from numba import njit

from analyzer.analysis.columns import dealt_settlement
from analyzer.analysis.exact import analyze, check_known
from analyzer.errors import AnalyzerError
from analyzer.game.cards import CARD_VALUES
from analyzer.game.fields import N_PAIR_STATES, NO_THIRD, NO_THIRD_CARD, card_columns
from analyzer.game.games import Game
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import Paytable
from analyzer.paytables.settle import Settlement, settling_rule
from analyzer.runs.dealer import (
    Drawing,
    Procedure,
    deal_shoes,
    first_round_start,
    round_cards,
    round_columns,
    round_identities,
    round_multipliers,
    special_factors,
)
from analyzer.runs.decided import DecidedPlays, decided_plays, draw_reveals, reveal_codes
from analyzer.runs.game_dealer import (
    deal_game_shoes,
    game_multipliers,
    game_special_factors,
    round_fields,
    winner_codes,
)
from analyzer.runs.runner import Result, partition_rng
from analyzer.runs.stats import Z_95, ratio_and_error

#: The most riffles ``--shuffle`` takes (seven already leave an 8-deck shoe nearly mixed).
MAX_RIFFLES = 1000


def shuffle_riffles(text: str) -> int:
    """The riffles a shuffle's name asks for: ``perfect`` 0, ``riffle:K`` K (1 to
    :data:`MAX_RIFFLES`); anything else, one line (:class:`AnalyzerError`)."""
    value = text.strip().lower() if isinstance(text, str) else ""
    if value == "perfect":
        return 0
    kind, _, count = value.partition(":")
    if kind == "riffle" and count.isdigit() and 1 <= int(count) <= MAX_RIFFLES:
        return int(count)
    raise AnalyzerError(
        f"is perfect or riffle:K, K riffles from 1 to {MAX_RIFFLES} (e.g. riffle:2), "
        f"got {text!r:.40}"
    )


@dataclass(frozen=True)
class SimulationJob:
    """A Monte Carlo run: every bet on offer of ``paytable``, shoes dealt by ``procedure``."""

    paytable: Paytable
    procedure: Procedure
    seed: int
    #: Every round is kept too, for a log (:func:`settle_partition`); the result is the same.
    logged: bool = False
    #: The shuffle: 0 perfect; K over 0, each partition a table whose first shoe is
    #: shuffled perfectly and each later one is the one before's discards riffled K times
    #: (:func:`~analyzer.runs.dealer.deal_riffled_shoes`; punto banco only).
    riffles: int = 0
    #: A game whose hands draw or decide: how its rounds are played, solved when the job
    #: is made, before any shoe is dealt (:func:`drawn_plays`); None for another game.
    plays: DrawnPlays | None = field(default=None, init=False, repr=False, compare=False)
    #: A punto banco paytable with a player's ``[decision]`` (Peek Baccarat): how its
    #: bets are played, solved when the job is made (:mod:`analyzer.runs.decided`).
    decided: DecidedPlays | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        game = self.paytable.game
        if self.riffles and game is not None:
            raise AnalyzerError(
                f"{self.paytable.source}: --shuffle riffle deals punto banco shoes; "
                f"{game.name} is dealt from a perfect shuffle only"
            )
        if game is not None and game.by_values:
            object.__setattr__(self, "plays", drawn_plays(self.paytable, self.procedure))
        if game is None and self.paytable.punto_banco_decision is not None:
            plays = decided_plays(self.paytable, Shoe.standard(self.procedure.decks))
            object.__setattr__(self, "decided", plays)

    @property
    def n_columns(self) -> int:
        """The (bet, mode) columns of a partition's per-shoe results."""
        return sum(1 for _ in self.paytable.offered(self.paytable.modes))

    def partition_bytes(self, shoes: int) -> int:
        """About the most memory a partition of ``shoes`` shoes holds: its results, three
        float64s per shoe and column, and as much again while they are joined and saved
        (a round's settlement is one bet at a time). 10,000 shoes of 3,300 bets peaked at
        1.4 GB above start-up; this says 1.6 GB."""
        held = shoes * self.n_columns * 48
        game = self.paytable.game
        if game is not None:  # the shoes' cards, and one block of rounds at a time
            held += shoes * self.procedure.cards * 8 * (2 if game.by_values else 1)
            held += _game_block(self.procedure, game)[1] * _GAME_ROUND_BYTES
            if self.paytable.multipliers is not None:  # every round's specials, drawn at once
                held += shoes * self.procedure.cards * _SPECIAL_CARD_BYTES
            if self.logged:  # and per round kept: its nets and its cards
                rounds = shoes * (self.procedure.cards // game.cards + 1)
                held += rounds * (self.n_columns * 16 + game.most_cards * 8 * 2 + 64)
            return held
        rounds = shoes * (self.procedure.cards // 4 + 1)
        if self.logged:  # and per round: its nets (twice, as they are made) and its cards
            held += rounds * (self.n_columns * 16 + 6 * 8 * 2)
        if self.decided is not None:  # its fields, first cards, reveal, code, stake, nets
            held += rounds * 512
        return held

    @property
    def identity(self) -> dict[str, Any]:
        """Everything the result depends on (saved partitions are matched against it)."""
        identity = {
            "command": "simulate",
            "paytable": self.paytable.fingerprint,
            "procedure": asdict(self.procedure),
            "seed": self.seed,
        }
        # (a perfect shuffle's runs keep the identity they had before riffles were dealt)
        return identity | ({"riffles": self.riffles} if self.riffles else {})


def simulate_partition(job: SimulationJob, index: int, shoes: int) -> Result:
    """Deal ``shoes`` shoes; per shoe and (bet, mode): rounds bet and their summed net."""
    return settle_partition(job, index, shoes)[0]


@dataclass(frozen=True, eq=False)
class SettledRounds:
    """Every round of a partition as it was dealt and settled (what a log writes).

    ``shoe``: each round's shoe, from 0 within the partition; ``rounds``: the dealer's
    records (:data:`~analyzer.runs.dealer.ROUND_DTYPE`); ``cards``: the card indices of
    each round in :data:`~analyzer.game.fields.CARDS` order, -1 for a third card not
    dealt; ``burns``: per shoe, the card shown and the cards burned after it; ``winner``:
    ``"player"``, ``"banker"`` or ``"tie"``; ``nets``: per round and (bet, mode) of
    ``paytable.offered``, the net per unit staked with any fee paid (NaN on a round after
    the bet's max round); ``factors``: each card's multiplier (1 unless special), or None
    without a multiplier model; with a ``[decision]`` (else None), ``shown``: the cards
    each round showed, as the log's ``shown`` column writes them, and ``actions``: per
    bet id of the decision, each round's action's name (a bet of it raised per base
    stake in ``nets``).
    """

    shoe: np.ndarray
    rounds: np.ndarray
    cards: np.ndarray
    burns: tuple[np.ndarray, ...]
    winner: np.ndarray
    nets: np.ndarray
    factors: np.ndarray | None
    shown: np.ndarray | None = None
    actions: dict[str, np.ndarray] | None = None


def settle_partition(
    job: SimulationJob, index: int, shoes: int, keep_rounds: bool = False
) -> tuple[Result, SettledRounds | None]:
    """:func:`simulate_partition`'s result, and with ``keep_rounds`` every round it dealt
    and settled (the same random numbers: the same rounds either way)."""
    if job.paytable.game is not None:
        if job.plays is not None:
            return settle_drawn_partition(job, index, shoes, keep_rounds)
        return settle_game_partition(job, index, shoes, keep_rounds)
    decided = job.decided
    rng = partition_rng(job.seed, index)
    offered = list(job.paytable.offered(job.paytable.modes))
    card_level = any(bet.card_level for bet, _ in offered)
    model = job.paytable.multipliers
    drawing = Drawing.of(job.paytable.rules, job.paytable.strategy)
    dealt = deal_shoes(rng, shoes, job.procedure, drawing, job.riffles)
    totals = np.zeros((shoes, len(offered)))
    counts = np.zeros((shoes, len(offered)))
    squares = np.zeros((shoes, len(offered)))
    # Bets on the round's outcome are settled by cell, in one compiled pass over the
    # rounds; bets multiplied, on the cards themselves or played by a decision (at the
    # stake of the cards each round shows) by the rounds' columns.
    raised = {} if decided is None else {b: c for c, b in enumerate(decided.columns)}
    by_cell = [
        b
        for b, (bet, _) in enumerate(offered)
        if not bet.multiplied and not bet.card_level and b not in raised
    ]
    on_cells = set(by_cell)
    by_round = [b for b in range(len(offered)) if b not in on_cells]
    if by_cell:
        cell_group, rule_of_group = dealt_settlement(
            [offered[b] for b in by_cell], drawing.naturals
        )
        group_nets = np.empty((rule_of_group.shape[1], len(by_cell)))
        for j, b in enumerate(by_cell):
            group_nets[:, j] = _rule_nets(Settlement(offered[b][0]))[rule_of_group[j]]
        max_round = np.array([_last_round(offered[b][0]) for b in by_cell], dtype=np.int64)
        sums = np.zeros((3, shoes, len(by_cell)))
        _settle_by_cell_jit(dealt.table, dealt.n_rounds, cell_group, group_nets, max_round, sums)
        totals[:, by_cell], squares[:, by_cell], counts[:, by_cell] = sums
    # (The arrays are filled in place below: the result holds them as they end.)
    result = {"totals": totals, "counts": counts, "squares": squares, "rounds": dealt.n_rounds}
    if not by_round and not keep_rounds:
        return result, None
    rounds = dealt.rounds
    shoe_of_round = np.repeat(np.arange(shoes), dealt.n_rounds)
    columns = round_columns(rounds, drawing.naturals)
    identities = burns = None
    if card_level or model is not None or keep_rounds:  # the cards themselves
        shoe_cards = [(dealt.cards[i], dealt.shoe(i)) for i in range(shoes)]
        identities = np.concatenate([round_identities(c, r) for c, r in shoe_cards])
        if card_level:
            ranks, suits = zip(*(round_cards(c, r) for c, r in shoe_cards), strict=True)
            columns |= card_columns(np.concatenate(ranks), np.concatenate(suits))
        if keep_rounds:
            burns = [c[: first_round_start(c, job.procedure)].copy() for c, _ in shoe_cards]
    factors = None
    if model is not None:  # each round's special cards, drawn after the shoe's deal
        factors = special_factors(rng, identities, model)
    reveal = codes = None
    if raised:  # the cards each round shows, drawn after the shoes' deal
        reveal = draw_reveals(rng, decided.reveals, len(rounds))
        at = rounds["start"][:, None] + np.arange(4)
        first_four = CARD_VALUES[dealt.cards[shoe_of_round[:, None], at]]
        codes = reveal_codes(decided.places, first_four, reveal)
    logged = np.full((len(rounds), len(offered)), np.nan) if keep_rounds else None
    taken: dict[str, np.ndarray] = {}  # (per bet of the decision, each round's action)
    for b, (bet, _) in enumerate(offered):
        if b in on_cells and logged is None:
            continue
        index = settling_rule(bet, columns, len(rounds))
        multiplier = None
        if bet.multiplied:
            multiplier = round_multipliers(
                factors, identities, columns["winner"], bet.multiply, model
            )
        settlement = Settlement(bet)
        on_offer = rounds["round"] <= _last_round(bet)
        if b not in on_cells:
            if b in raised:  # at the stake of the round's information set, the fee on one
                played = decided.round_actions(raised[b], reveal, codes)
                lines = decided.stakes[played] * _constants(settlement)[index]
                forfeit = decided.forfeits[played]  # (a fold: the share of the stake lost)
                lines = np.where(forfeit > 0, -forfeit, lines)
                nets = settlement.per_paid(lines)
                if logged is not None:  # (per base stake, the fee paid: as a log gives it)
                    logged[:, b] = np.where(on_offer, lines - float(settlement.fee), np.nan)
                    taken.setdefault(bet.id, played)
            else:
                nets = settlement.paid_nets(index, columns["winner"], multiplier)
            totals[:, b] = np.bincount(shoe_of_round, weights=nets * on_offer, minlength=shoes)
            squares[:, b] = np.bincount(shoe_of_round, weights=nets**2 * on_offer, minlength=shoes)
            counts[:, b] = np.bincount(shoe_of_round, weights=on_offer, minlength=shoes)
        if logged is not None and b not in raised:
            staked = _staked_nets(settlement, index, multiplier)
            logged[:, b] = np.where(on_offer, staked, np.nan)
    if not keep_rounds:
        return result, None
    shown = actions = None
    if raised:
        decision = job.paytable.punto_banco_decision
        texts = np.array([" ".join(r.sees) or "none" for r in decision.reveals], dtype=object)
        names = np.array([a.name for a in decision.actions], dtype=object)
        shown = texts[reveal]
        actions = {bet_id: names[played] for bet_id, played in taken.items()}
    kept = SettledRounds(
        shoe=shoe_of_round,
        rounds=rounds,
        cards=identities.reshape(-1, 6),
        burns=tuple(burns),
        winner=columns["winner"],
        nets=logged,
        factors=factors,
        shown=shown,
        actions=actions,
    )
    return result, kept


@dataclass(frozen=True, eq=False)
class SettledGameRounds:
    """Every round of a partition of another game of the family as it was dealt and
    settled (what a log writes).

    ``shoe``: each round's shoe, from 0 within the partition; ``number``: its number in
    the shoe, from 1; ``hands``: per hand, each round's cards in the order the hand took
    them (card indices, -1 past the last); ``burns``: per shoe, the card shown and the
    cards burned after it; ``winner``: the game's winner (a hand's name or its tie word);
    ``scores``: each hand's score (a column per hand); ``action``: the action taken (a
    game with a decision; else None); ``nets``: per round and (bet, mode) of
    ``paytable.offered``, the net per base stake with any fee paid (NaN on a round after
    the bet's max round); ``shown``: where the decision's cards shown are random, the
    cards each round showed, as the log's ``shown`` column writes them (else None).
    """

    shoe: np.ndarray
    number: np.ndarray
    hands: tuple[np.ndarray, ...]
    burns: tuple[np.ndarray, ...]
    winner: np.ndarray
    scores: np.ndarray
    action: np.ndarray | None
    nets: np.ndarray
    shown: np.ndarray | None = None


def _joined(parts: list[SettledGameRounds], burns: tuple[np.ndarray, ...]) -> SettledGameRounds:
    """A partition's blocks of kept rounds as one."""
    first = parts[0]
    return SettledGameRounds(
        shoe=np.concatenate([part.shoe for part in parts]),
        number=np.concatenate([part.number for part in parts]),
        hands=tuple(
            np.concatenate([part.hands[h] for part in parts]) for h in range(len(first.hands))
        ),
        burns=burns,
        winner=np.concatenate([part.winner for part in parts]),
        scores=np.concatenate([part.scores for part in parts]),
        action=None if first.action is None else np.concatenate([p.action for p in parts]),
        nets=np.concatenate([part.nets for part in parts]),
        shown=None if first.shown is None else np.concatenate([p.shown for p in parts]),
    )


def _burns(cards: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per shoe, its cards before round 1: the card shown and the cards burned."""
    return tuple(cards[i, : starts[i]].copy() for i in range(len(cards)))


#: Rounds of a game settled at once (a block of a partition's shoes), and about the
#: most memory each takes meanwhile: its cards, ranks and suits, the fields the bets read
#: (numbers, and short texts), and a bet's rule, net and offer (one bet at a time).
_GAME_BLOCK_ROUNDS = 200_000
_GAME_ROUND_BYTES = 2_048
#: About the most memory the specials of a game's rounds take while they are drawn at
#: once, per card of the shoes (a round's cards are a shoe's at most): each card's key
#: and factor, and the draw's per-round temporaries (at least one card a round).
_SPECIAL_CARD_BYTES = 80


def _game_block(procedure: Procedure, game: Game) -> tuple[int, int]:
    """The shoes of a game settled at once (one at least) and the most rounds they
    hold: about :data:`_GAME_BLOCK_ROUNDS`."""
    per_shoe = procedure.cards // game.cards + 1
    shoes = max(_GAME_BLOCK_ROUNDS // per_shoe, 1)
    return shoes, shoes * per_shoe


def settle_game_partition(
    job: SimulationJob, index: int, shoes: int, keep_rounds: bool = False
) -> tuple[Result, SettledGameRounds | None]:
    """:func:`simulate_partition` of a paytable of another game of the family
    (:mod:`analyzer.game.games`): the shoes dealt as :mod:`analyzer.runs.game_dealer`
    says, each round's fields computed from the game's definition, and each bet settled
    on them by its first rule that holds (:func:`~analyzer.paytables.settle.settling_rule`)
    up to its max round; per shoe and (bet, mode), the rounds bet and their summed nets
    per unit paid (and squares), as for punto banco. A multiplied bet is paid by the
    specials drawn for each round after the shoes' shuffle (special card identities, or
    Lightning suits: :func:`~analyzer.runs.game_dealer.game_special_factors`), the product
    of its counted cards' multipliers. With ``keep_rounds``, every round too (the same
    random numbers: the same rounds either way; a log of a game's multiplied bets is
    refused by :func:`check_simulation`)."""
    game = job.paytable.game
    model = job.paytable.multipliers
    rng = partition_rng(job.seed, index)
    offered = list(job.paytable.offered(job.paytable.modes))
    dealt = deal_game_shoes(rng, shoes, job.procedure, game)
    fields = frozenset().union(*(bet.fields for bet, _ in offered))
    totals = np.zeros((shoes, len(offered)))
    counts = np.zeros((shoes, len(offered)))
    squares = np.zeros((shoes, len(offered)))
    settlements = [Settlement(bet) for bet, _ in offered]
    nets_of = [None if s.bet.multiplied else _rule_nets(s) for s in settlements]
    per_block, _ = _game_block(job.procedure, game)
    factors = None
    if any(bet.multiplied for bet, _ in offered):  # every round's specials, in order
        factors = game_special_factors(rng, dealt, model, per_block)
        begins = np.concatenate([[0], np.cumsum(dealt.n_rounds)])
    kept: list[SettledGameRounds] = []
    for first in range(0, shoes, per_block):
        stop = min(first + per_block, shoes)
        rounds = dealt.rounds(first, stop)
        columns = round_fields(game, rounds, fields)
        shoe_of_round = rounds.shoe - first
        if factors is not None:
            block_factors = factors[begins[first] : begins[stop]]
            winners = winner_codes(game, columns["winner"])
        logged = np.full((len(rounds), len(offered)), np.nan) if keep_rounds else None
        for b, (bet, _) in enumerate(offered):
            on_offer = rounds.number <= _last_round(bet)
            index_of_rule = settling_rule(bet, columns, len(rounds))
            if bet.multiplied:
                multiplier = game_multipliers(game, block_factors, winners, bet.multiply, model)
                nets = settlements[b].paid_nets(index_of_rule, columns["winner"], multiplier)
            else:
                nets = nets_of[b][index_of_rule]
            if logged is not None:
                staked = _staked_nets(Settlement(bet), index_of_rule, None)
                logged[:, b] = np.where(on_offer, staked, np.nan)
            size = stop - first
            totals[first:stop, b] = np.bincount(
                shoe_of_round, weights=nets * on_offer, minlength=size
            )
            squares[first:stop, b] = np.bincount(
                shoe_of_round, weights=nets**2 * on_offer, minlength=size
            )
            counts[first:stop, b] = np.bincount(shoe_of_round, weights=on_offer, minlength=size)
        if logged is not None:
            kept.append(
                SettledGameRounds(
                    shoe=rounds.shoe,
                    number=rounds.number,
                    hands=tuple(rounds.cards[:, positions] for positions in game.hand_positions),
                    burns=(),
                    winner=np.asarray(columns["winner"]),
                    scores=np.column_stack([columns[f"{hand.name}_score"] for hand in game.hands]),
                    action=None,
                    nets=logged,
                )
            )
    result = {"totals": totals, "counts": counts, "squares": squares, "rounds": dealt.n_rounds}
    if not keep_rounds:
        return result, None
    return result, _joined(kept, _burns(dealt.cards, dealt.starts))


@dataclass(frozen=True, eq=False)
class DrawnPlays:
    """How the rounds of a game whose hands draw or decide are played: the (bet, mode)
    columns of ``paytable.offered`` in groups played alike, each group's action on every
    first deal (:func:`~analyzer.runs.drawn_dealer.action_by_deal`), and each action's
    stake (one action, of stake 1, without a decision) and the share of the base stake
    it forfeits (a fold's; 0 for an action that plays on)."""

    groups: tuple[tuple[np.ndarray, tuple[int, ...]], ...]
    stakes: np.ndarray
    forfeits: np.ndarray | None = None


def drawn_plays(paytable: Paytable, procedure: Procedure) -> DrawnPlays:
    """Each (bet, mode) on offer played by its exact strategy on a full shoe of the
    procedure's decks, as the analysis solves it (the exact EVs a simulation is set
    beside are this play's); columns whose strategies play every first deal alike are
    dealt together."""
    from analyzer.runs.drawn_dealer import actions_by_reveal

    game = paytable.game
    analysis = analyze(paytable=paytable, decks=procedure.decks)
    groups: dict[bytes, tuple[np.ndarray, list[int]]] = {}
    for b, (bet, mode) in enumerate(paytable.offered(paytable.modes)):
        table = analysis.choices.get((bet.id, mode))
        actions = actions_by_reveal(game, table)
        groups.setdefault(actions.tobytes(), (actions, []))[1].append(b)
    decision = game.decision
    stakes = np.array([1] if decision is None else [a.stake for a in decision.actions])
    forfeits = [0] if decision is None else [float(a.forfeit) for a in decision.actions]
    return DrawnPlays(
        tuple((actions, tuple(columns)) for actions, columns in groups.values()),
        stakes.astype(np.float64),
        np.array(forfeits, dtype=np.float64),
    )


def settle_drawn_partition(
    job: SimulationJob, index: int, shoes: int, keep_rounds: bool = False
) -> tuple[Result, SettledGameRounds | None]:
    """:func:`simulate_partition` of a game whose hands draw or decide: the shoes shuffled
    and burned as for a game dealt once, each group of bets' rounds dealt by its play
    (:mod:`analyzer.runs.drawn_dealer`), a block of shoes at a time, and each bet settled
    by its first rule that holds, a raised stake netting its multiple of the line. The
    partition's rounds per shoe are those its first (bet, mode) is played on. With
    ``keep_rounds`` (every bet played alike: :func:`check_simulation`), every round too."""
    from analyzer.runs.drawn_dealer import (
        deal_drawn_rounds,
        drawn_columns,
        max_rounds,
        slot_cards,
    )
    from analyzer.runs.game_dealer import shuffled_game_shoes

    game = job.paytable.game
    plays = job.plays
    rng = partition_rng(job.seed, index)
    offered = list(job.paytable.offered(job.paytable.modes))
    cards, starts = shuffled_game_shoes(rng, shoes, job.procedure)
    reveals = None
    if game.decision is not None and game.decision.shown:
        # The cards each round's decision is shown, drawn after the shoes' deal (a row
        # per shoe, a column per round it may deal), outside the dealing kernel.
        most = max_rounds(job.procedure, game)
        drawn = draw_reveals(rng, game.decision.reveals, shoes * most)
        reveals = drawn.reshape(shoes, most)
    values = CARD_VALUES[cards]
    totals = np.zeros((shoes, len(offered)))
    counts = np.zeros((shoes, len(offered)))
    squares = np.zeros((shoes, len(offered)))
    n_rounds = np.zeros(shoes, dtype=np.int64)
    settlements = [Settlement(bet) for bet, _ in offered]
    per_block, _ = _game_block(job.procedure, game)
    kept: list[SettledGameRounds] = []
    for first in range(0, shoes, per_block):
        stop = min(first + per_block, shoes)
        size = stop - first
        logged = None
        for g, (actions, columns_of_group) in enumerate(plays.groups):
            rounds, dealt = deal_drawn_rounds(
                values[first:stop],
                starts[first:stop],
                job.procedure,
                game,
                actions,
                None if reveals is None else reveals[first:stop],
            )
            if g == 0:
                n_rounds[first:stop] = dealt
            shoe_of_round = np.repeat(np.arange(size), dealt)
            # The fields of single cards the group's bets read (none: none made).
            wanted = frozenset().union(*(offered[b][0].fields for b in columns_of_group))
            slots = None
            if any(game.vocabulary[name].card_level for name in wanted if name in game.vocabulary):
                slots = slot_cards(game, cards[first:stop], rounds, shoe_of_round)
            columns = drawn_columns(game, rounds, slots, wanted)
            stake = plays.stakes[rounds[:, 3]]
            forfeit = None if plays.forfeits is None else plays.forfeits[rounds[:, 3]]
            if keep_rounds:
                logged = np.full((len(rounds), len(offered)), np.nan)
            for b in columns_of_group:
                bet = offered[b][0]
                settlement = settlements[b]
                constant = _constants(settlement)
                # (a bet the decision does not raise rides on the rounds at one stake)
                decided = bet.id in job.paytable.decided
                raised = stake if decided else 1.0
                lines = raised * constant[settling_rule(bet, columns, len(rounds))]
                if decided and forfeit is not None:  # (a fold: the share of the stake lost)
                    lines = np.where(forfeit > 0, -forfeit, lines)
                nets = settlement.per_paid(lines)
                on_offer = rounds[:, 0] <= _last_round(bet)
                if logged is not None:
                    staked = lines - float(settlement.fee)
                    logged[:, b] = np.where(on_offer, staked, np.nan)
                totals[first:stop, b] = np.bincount(
                    shoe_of_round, weights=nets * on_offer, minlength=size
                )
                squares[first:stop, b] = np.bincount(
                    shoe_of_round, weights=nets**2 * on_offer, minlength=size
                )
                counts[first:stop, b] = np.bincount(shoe_of_round, weights=on_offer, minlength=size)
            if logged is not None:  # (one group: every bet played alike)
                kept.append(_drawn_kept(game, cards[first:stop], rounds, dealt, columns, logged))
                kept[-1] = replace(kept[-1], shoe=kept[-1].shoe + first)
    result = {"totals": totals, "counts": counts, "squares": squares, "rounds": n_rounds}
    if not keep_rounds:
        return result, None
    return result, _joined(kept, _burns(cards, starts))


def _drawn_kept(
    game: Game,
    cards: np.ndarray,
    rounds: np.ndarray,
    dealt: np.ndarray,
    columns: dict[str, np.ndarray],
    nets: np.ndarray,
) -> SettledGameRounds:
    """The kept rounds of a block of shoes of a game whose hands draw or decide: each
    hand's cards as the round dealt them (:mod:`analyzer.runs.drawn_dealer`: the first
    deal in the game's dealing order, then the extra cards in the order of the hands)."""
    from analyzer.runs.drawn_dealer import slot_cards

    shoe = np.repeat(np.arange(len(cards)), dealt)
    slots = slot_cards(game, cards, rounds, shoe)
    hands = []
    extra = game.cards
    for hand, positions in zip(game.hands, game.hand_positions, strict=True):
        held = np.full((len(rounds), hand.cards + hand.extra), -1, dtype=np.int64)
        held[:, : hand.cards] = slots[:, positions]
        if hand.extra:  # the card after the deal, where taken (its slot after the deal)
            held[:, hand.cards] = slots[:, extra]
            extra += 1
        hands.append(held)
    return SettledGameRounds(
        shoe=shoe,
        number=rounds[:, 0],
        hands=tuple(hands),
        burns=(),
        winner=np.asarray(columns["winner"]),
        scores=rounds[:, 5:7],
        action=np.asarray(columns["action"]) if "action" in columns else None,
        nets=nets,
        shown=_shown_texts(game)[rounds[:, 9]] if _shown_texts(game) is not None else None,
    )


def _shown_texts(game: Game) -> np.ndarray | None:
    """Per reveal of the game's decision, the cards it shows as a log writes them (their
    names space-separated, "none"); None where the cards seen are not random."""
    if game.decision is None or not game.decision.shown:
        return None
    return np.array([" ".join(r.sees) or "none" for r in game.decision.reveals], dtype=object)


def _last_round(bet) -> int:
    """The last round of a shoe the bet is offered in."""
    return bet.max_round or np.iinfo(np.int64).max


def _constants(settlement: Settlement) -> np.ndarray:
    """Per rule (then "no rule"), the net per unit staked of a bet not multiplied, before
    the fee, in floats."""
    return np.array([float(net) for net in settlement.constants])


def _rule_nets(settlement: Settlement) -> np.ndarray:
    """Per rule (then "no rule"), the net per unit paid of a bet not multiplied, in
    floats: what :meth:`~analyzer.paytables.settle.Settlement.paid_nets` gives a round
    settled by it (no winner needed: the bet's nets do not depend on its cards)."""
    return settlement.paid_nets(np.arange(len(settlement.constants)), None, None)


@njit(cache=True)
def _settle_by_cell_jit(table, n_rounds, cell_group, group_nets, max_round, sums):
    """Per shoe ``i`` and column ``c``: ``sums[0, i, c]``, the summed net of its rounds
    ``table[i, :n_rounds[i]]`` (rows of ROUND_FIELDS) up to the column's ``max_round``,
    ``sums[1]`` their squares and ``sums[2]`` how many; a round's net is that of its
    outcome cell's group (``cell_group``) in ``group_nets[group, c]``."""
    for i in range(table.shape[0]):
        for r in range(n_rounds[i]):
            row = table[i, r]
            player_third = NO_THIRD if row[5] == NO_THIRD_CARD else row[5]
            banker_third = NO_THIRD if row[6] == NO_THIRD_CARD else row[6]
            state = N_PAIR_STATES * row[7] + row[8]
            cell = (((state * 10 + row[3]) * 10 + row[4]) * 11 + player_third) * 11 + banker_third
            group = cell_group[cell]
            for c in range(group_nets.shape[1]):
                if row[0] <= max_round[c]:
                    net = group_nets[group, c]
                    sums[0, i, c] += net
                    sums[1, i, c] += net * net
                    sums[2, i, c] += 1.0


def _staked_nets(
    settlement: Settlement, index: np.ndarray, multiplier: np.ndarray | None
) -> np.ndarray:
    """Per round, the net per unit staked with the fee paid, as a log gives it (what
    :meth:`~analyzer.paytables.settle.Settlement.paid_nets` gives per unit paid):
    ``constant - fee`` taken exactly, so a bet without a multiplier logs the paytable's
    figure to the last digit."""
    constant = np.array([float(net - settlement.fee) for net in settlement.constants])
    if multiplier is None:
        return constant[index]
    slope = np.array([float(b) for b in settlement.slopes])
    return constant[index] + slope[index] * multiplier


def check_simulation(paytable: Paytable, procedure: Procedure, log: bool = False) -> None:
    """Refuse, before any shoe is dealt, a simulation that cannot be run: a paytable with
    unknowns left, a bet that pays by the winner's cards on a tie, exact EVs too large
    to work out, or (``log``) a log of a paytable with a ``[decision]`` on punto banco
    (rounds raised on the cards shown), of a game's multiplied bets (a log holds no
    Lightning suits), or of a game whose bets' strategies play its rounds differently (a
    log gives one action a round)."""
    from analyzer.runs.jobs import check_exact_work

    check_known(paytable)  # the special cards' and the cards shown's chances are numbers
    game = paytable.game
    if game is not None:
        from analyzer.engine.deal_walk import check_deal_walk

        if log and any(bet.multiplied for bet, _ in paytable.offered(paytable.modes)):
            raise AnalyzerError(
                f"{paytable.source}: --log writes rounds as audit reads them, and a log "
                "holds no multipliers drawn: simulate its multiplied bets without a log"
            )

        if game.by_values:  # (a round takes at most six cards: any shoe deals one)
            # Each bet's strategy is solved on a full shoe first: its walk within budget.
            shoe = Shoe.standard(procedure.decks)
            for bet, _ in paytable.offered(paytable.modes):
                check_deal_walk(game, shoe, bet.fields, bet=bet.id)
            if log and len(drawn_plays(paytable, procedure).groups) > 1:
                raise AnalyzerError(
                    f"{paytable.source}: --log writes one action a round, and the bets' "
                    f"exact strategies play {game.name}'s rounds differently: simulate "
                    "the bets apart (a paytable of bets played alike) to log them"
                )
            return
        offered = [bet for bet, _ in paytable.offered(paytable.modes)]
        winners = [bet.id for bet in offered if bet.multiply == "winner"]
        if winners:  # a bet that pays by the winner's cards on a tie is refused
            analyze(paytable=paytable, bets=winners, decks=procedure.decks)
        fields = frozenset().union(*(bet.fields for bet in offered))
        check_deal_walk(game, Shoe.standard(procedure.decks), fields)
        return
    winners = [bet.id for bet in paytable.bets if bet.multiply == "winner"]
    if winners:  # a bet that pays by the winner's cards on a tie is refused
        analyze(paytable=paytable, bets=winners)
    offered = [bet for bet, _ in paytable.offered(paytable.modes)]
    check_exact_work(offered, procedure, mixture=paytable.mixture)


def exact_evs(paytable: Paytable, procedure: Procedure) -> dict[tuple[str, str], Fraction]:
    """Per (bet, mode) on offer, the exact EV of a round from a full shoe of the
    procedure's decks: what a simulation's mean return is set beside."""
    return {
        (r.bet.id, r.mode): r.expected_value
        for r in analyze(paytable=paytable, decks=procedure.decks).results
    }


def simulated_rounds(results: list[Result]) -> int:
    """The rounds dealt over every partition's shoes."""
    return int(sum(r["rounds"].sum() for r in results))


def simulation_summary(
    paytable: Paytable,
    procedure: Procedure,
    results: list[Result],
    exact: dict[tuple[str, str], Fraction] | None = None,
) -> pd.DataFrame:
    """Per (bet, mode): rounds bet, mean return per unit with its 95% interval (standard
    errors over shoes, since rounds of one shoe are not independent) and the exact EV of a
    round from a full shoe beside it (``exact``: :func:`exact_evs`, worked out if None)."""
    totals = np.concatenate([r["totals"] for r in results])
    counts = np.concatenate([r["counts"] for r in results])
    if exact is None:
        exact = exact_evs(paytable, procedure)
    rows = []
    for b, (bet, mode) in enumerate(paytable.offered(paytable.modes)):
        mean, error = ratio_and_error(totals[:, b], counts[:, b])
        rows.append(
            {
                "bet": bet.id,
                "mode": mode,
                "rounds_bet": int(counts[:, b].sum()),
                "mean_return": mean,
                "std_error": error,
                "ci95_low": mean - Z_95 * error,
                "ci95_high": mean + Z_95 * error,
                "exact_ev": float(exact[(bet.id, mode)]),
                "z": (mean - float(exact[(bet.id, mode)])) / error if error else float("nan"),
                "max_round": bet.max_round,
            }
        )
    frame = pd.DataFrame(rows)
    # Whole rounds or None (no max round), not floats with NaN.
    frame["max_round"] = pd.Series([row["max_round"] for row in rows], dtype=object)
    return frame


def check_simulate_partition(result: Result, shoes: int) -> None:
    """Raise ``ValueError`` unless ``result`` has the keys, shapes and dtypes that
    :func:`simulate_partition` gives for ``shoes`` shoes (a saved file is checked before
    it is trusted): per shoe, its rounds and a row of sums with one column per bet."""
    expected = {"totals", "counts", "squares", "rounds"}
    if set(result) != expected:
        raise ValueError(f"keys {sorted(result)}, expected {sorted(expected)}")
    if result["rounds"].dtype != np.int64 or result["rounds"].shape != (shoes,):
        raise ValueError(f"rounds: {result['rounds'].dtype} {result['rounds'].shape}")
    bets = result["totals"].shape[1] if result["totals"].ndim == 2 else -1
    for key in ("totals", "counts", "squares"):
        array = result[key]
        if array.dtype != np.float64 or array.shape != (shoes, bets):
            raise ValueError(f"{key}: {array.dtype} {array.shape}")
