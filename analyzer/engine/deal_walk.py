"""The deal walk: every ordered deal of a game without drawing, exactly.

A game of :mod:`analyzer.game.games` deals a fixed number of cards (two in Dragon Tiger,
six in Three Card Baccarat) and nobody draws, so a round is an ordered sequence of that
many cards. The kernel walks every sequence of card *classes* (ranks, or ranks and suits
where a bet looks at suits) and weighs it by the ordered ways to deal it: the falling
product of the class counts (the plain product with replacement). The game's own
definition then turns each sequence into the fields a condition asks about, and the
sequences are gathered into one row per distinct set of those fields: an
:class:`~analyzer.engine.outcomes.OutcomeTable` over the denominator ``N (N-1) ... (N-k+1)``
(``N^k`` with replacement), which every bet is settled on as punto banco's are.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numba import njit

from analyzer.engine.outcomes import OutcomeTable
from analyzer.engine.rows import unique_rows
from analyzer.errors import AnalyzerError
from analyzer.game.cards import CARD_RANKS, CARD_SUITS, RANK_VALUES
from analyzer.game.games import COLOUR_OF_SUIT, Action, Game, decoded
from analyzer.game.shoe import Shoe
from analyzer.memo import Kept

__all__ = [
    "FIRST_FOUR",
    "INFORMATION",
    "LEVELS",
    "MAX_DRAWN_CELLS",
    "MAX_DRAWN_STEPS",
    "MAX_SEQUENCES",
    "SetCells",
    "best_actions",
    "card_levels",
    "check_deal_walk",
    "dealt_outcomes",
    "dealt_tables",
    "drawn_bounds",
    "drawn_cells",
    "drawn_tables",
    "information_codes",
    "information_values",
    "played_ways",
    "punto_banco_cells",
    "sequences_bound",
]

#: The most class sequences one walk may hold: each costs some hundred bytes on the way
#: (its classes, every field's codes, their grouping), so 2,000,000 stay under half a
#: gigabyte. Two or four cards by suit (52^4 = 7.3 million: refused), six by point value
#: (10^6) fit; six by rank (13^6) do not: a bet on single cards of Three Card Baccarat is
#: refused, its bets on the hands walk the pairs of hands (455^2).
MAX_SEQUENCES = 2_000_000


@njit(cache=True)
def _next_sequence_jit(choice, left, weight, depth, take):
    """Advance an ordered walk of card classes to its next full sequence.

    ``choice[i]`` is the class at position ``i`` (-1 before the first), ``left`` the
    cards of each class left, ``weight[i + 1]`` the ordered ways of the first ``i + 1``
    positions; ``depth`` is where the last call stopped (0 to start). Returns the depth
    of the last position (the sequence is ``choice``, its ways ``weight[-1]``), or -1
    when every sequence has been met. One odometer for every walk of this module.
    """
    n_positions = choice.shape[0]
    n_classes = left.shape[0]
    while depth >= 0:
        c = choice[depth]
        if c >= 0:  # put back the card this position held before trying the next class
            left[c] += take
        c += 1
        while c < n_classes and left[c] == 0:
            c += 1
        if c == n_classes:
            choice[depth] = -1
            depth -= 1
            continue
        choice[depth] = c
        weight[depth + 1] = weight[depth] * left[c]
        left[c] -= take
        if depth + 1 == n_positions:
            return depth
        depth += 1
    return -1


@njit(cache=True)
def _deal_sequences_jit(class_counts, n_cards, take, classes, ways):
    """Every ordered sequence of ``n_cards`` classes the counts allow, and its ways.

    Parameters
    ----------
    class_counts : int64[C]
        Cards of each class in the shoe.
    n_cards : int
        Cards in a round.
    take : int
        What dealing a card takes from its count: 1, or 0 with replacement.
    classes : int64[S, n_cards]
        Filled with one sequence of class indices per row (S at least the number of
        sequences).
    ways : int64[S]
        Filled with each sequence's ordered ways: the product, position by position, of
        the cards of its class left.

    Returns
    -------
    int
        The number of sequences written.
    """
    left = class_counts.copy()
    choice = np.full(n_cards, -1, dtype=np.int64)
    weight = np.ones(n_cards + 1, dtype=np.int64)
    written = 0
    depth = _next_sequence_jit(choice, left, weight, 0, take)
    while depth >= 0:
        for i in range(n_cards):
            classes[written, i] = choice[i]
        ways[written] = weight[n_cards]
        written += 1
        depth = _next_sequence_jit(choice, left, weight, depth, take)
    return written


def _class_counts(shoe: Shoe, suits: bool) -> np.ndarray:
    if suits:
        return np.ascontiguousarray(shoe.suit_counts.reshape(-1), dtype=np.int64)
    return np.ascontiguousarray(shoe.rank_counts, dtype=np.int64)


def sequences_bound(game: Game, shoe: Shoe, suits: bool) -> int:
    """The most class sequences the walk of ``game`` on ``shoe`` can meet: the classes
    present to the power of the cards (what the budget is checked against)."""
    present = int(np.count_nonzero(_class_counts(shoe, suits)))
    return present**game.cards


def _hands_bound(game: Game, shoe: Shoe) -> int:
    """The pairs of hands (each a multiset of ranks) the walk by hands meets at most."""
    present = int(np.count_nonzero(_class_counts(shoe, False)))
    return math.prod(math.comb(present + hand.cards - 1, hand.cards) for hand in game.hands)


def check_deal_walk(
    game: Game,
    shoe: Shoe,
    fields: frozenset[str],
    bet: str | None = None,
    actions: int | None = None,
) -> None:
    """Refuse, in one line and before any work, the walk of ``game`` on ``shoe`` for
    ``fields`` that :func:`dealt_outcomes` (or, for a game whose hands draw or decide,
    :func:`drawn_tables`) refuses (what a simulation checks before it deals a shoe). The
    line names ``bet`` where given. ``actions``: the actions the drawn walk plays (the
    decision's, by default).

    Raises
    ------
    AnalyzerError
        Suits asked for on a shoe whose suits are unknown, a shoe too small for a round,
        or a walk over the budget (:data:`MAX_SEQUENCES`; the walk by card classes of a
        game whose hands draw or decide, :data:`MAX_DRAWN_STEPS` and
        :data:`MAX_DRAWN_CELLS`).
    """
    named = "" if bet is None else f"bet {bet!r}: "
    suits = game.needs_suits(fields)
    if suits and not shoe.suits_known:
        raise AnalyzerError(
            f"{named}{game.name}: a bet looks at suits, but the suits of some cards of the "
            "shoe are unknown"
        )
    if game.by_values:
        _check_drawn_walk(game, shoe, fields, named, actions)
        return
    n_cards = game.cards
    if not shoe.replacement and shoe.size < n_cards:
        raise AnalyzerError(
            f"{named}{game.name}: a round deals {n_cards} cards, the shoe has {shoe.size}"
        )
    if not _by_card(game, fields):
        bound = _hands_bound(game, shoe)
        if bound > MAX_SEQUENCES:  # (not with two hands of at most three cards: 455² at most)
            raise AnalyzerError(f"{named}{game.name}: {bound:,} pairs of hands, over the budget")
        return
    bound = sequences_bound(game, shoe, suits)
    if bound > MAX_SEQUENCES:
        what = "ranks and suits" if suits else "ranks"
        raise AnalyzerError(
            f"{named}{game.name}: {n_cards} cards told apart by {what} make up to {bound:,} "
            f"sequences, over the budget of {MAX_SEQUENCES:,}; drop the bets on single "
            "cards or use fewer cards"
        )


def _check_drawn_walk(
    game: Game, shoe: Shoe, fields: frozenset[str], named: str, actions: int | None
) -> None:
    """:func:`check_deal_walk` of a game whose hands draw or decide."""
    n_cards = game.most_cards
    if not shoe.replacement and shoe.size < n_cards:
        raise AnalyzerError(
            f"{named}{game.name}: a round deals up to {n_cards} cards, the shoe has {shoe.size}"
        )
    steps, cells = drawn_bounds(game, shoe, fields, actions)
    levels = card_levels(game, fields)
    asked = [
        f"{game.slot_name(slot)} by {LEVELS[level]}"
        for slot, level in enumerate(levels)
        if level > 0
    ]
    others = "; the others by value" if len(asked) < len(levels) else ""
    told = f" ({', '.join(asked)}{others})" if asked else ""
    if steps > MAX_DRAWN_STEPS:
        raise AnalyzerError(
            f"{named}{game.name}: its cards told apart as the bets ask{told} take up to "
            f"{steps:,} steps to walk, over the budget of {MAX_DRAWN_STEPS:,}; ask about "
            "fewer cards' suits or ranks"
        )
    if cells > MAX_DRAWN_CELLS:
        raise AnalyzerError(
            f"{named}{game.name}: the cards the bets ask about{told} make up to {cells:,} "
            f"cells, over the budget of {MAX_DRAWN_CELLS:,}; ask about fewer cards' suits "
            "or ranks"
        )


def _by_card(game: Game, fields: frozenset[str]) -> bool:
    """Does a field look at a single card (by its position), or tell cards apart by suit
    (the suits a multiplied bet's counted cards share)? Then the walk goes over
    sequences of cards, else over pairs of hands."""
    return game.needs_suits(fields) or any(
        name in game.vocabulary and game.vocabulary[name].card_level for name in fields
    )


def dealt_outcomes(game: Game, shoe: Shoe, fields: frozenset[str]) -> OutcomeTable:
    """Every distinct value of ``fields`` (plus the winner and the hands' scores) over
    every ordered deal of ``game`` from ``shoe``, with its exact ways.

    Where no field looks at a single card (its position), a hand's score, pictures and
    the winner depend only on which ranks each hand holds: the walk then goes over the
    pairs of hands as multisets of ranks, each weighed by its orders within each hand
    times the ordered ways to take those cards from the shoe (455² = 207,025 pairs for
    Three Card Baccarat, against 13^6 sequences), the same exact counts.

    Raises
    ------
    AnalyzerError
        Suits asked for on a shoe whose suits are unknown, or a walk over the budget
        (:data:`MAX_SEQUENCES`), refused before it starts; a shoe too small for a round
        (:func:`check_deal_walk`).
    """
    walk = _Walk.of(game, shoe, fields)
    return walk.table(tuple(walk.columns))


def dealt_tables(
    game: Game, shoe: Shoe, field_sets: Iterable[frozenset[str]]
) -> dict[frozenset[str], OutcomeTable]:
    """One deal walk of ``game`` from ``shoe`` over every field of ``field_sets``, and for
    each set a table over that set's fields only: every field it does not name (the
    winner, another hand's score, a card's suit where the set reads its rank) summed
    out, so that a bet on one card is settled on a row per value of that card (13 rows
    for Dragon Tiger's Big and Small, against 52² = 2,704 for a walk by suit). Each
    row's ways are the exact sum of the walk's rows it gathers.

    Raises
    ------
    AnalyzerError
        As :func:`dealt_outcomes`, for the walk over every field of the sets.
    """
    sets = tuple(dict.fromkeys(field_sets))
    walk = _Walk.of(game, shoe, frozenset().union(*sets))
    return walk.tables(sets)


#: The most cells (the product of the kept fields' numbers of codes) summed into a dense
#: array; more are grouped by sorting (:func:`~analyzer.engine.rows.unique_rows`).
_MOST_DENSE_CELLS = 1 << 16

#: Per walked rows (the game, the fields, the rows' ranks and suits), their fields'
#: codes and each table's grouping of them (:meth:`_Walk.table`), by the game's id (the
#: game kept beside them).
_layouts: Kept[tuple[Game, dict, dict]] = Kept(16)
#: Per layout of a walk over sequences of card classes (the game, the fields, and each
#: class's count up to a round's cards), the walk's fields' codes, each table's grouping
#: of them, each field's number of codes, and per sequence its classes and the cards of
#: each position's class dealt before it (:meth:`_Walk._of_sequences`), by the game's id
#: (the game kept beside them).
_sequence_layouts: Kept[tuple] = Kept(16)
_new_walk = object.__new__


class _Walk:
    """One deal walk: per walked row (a sequence of cards, or a pair of hands) the codes
    of every field :meth:`Game.columns` gives, each row's ordered ways (all positive),
    and the denominator."""

    def __init__(
        self,
        columns: dict[str, tuple[np.ndarray, tuple[str, ...] | None]],
        ways: np.ndarray,
        denominator: int,
    ) -> None:
        self.columns = columns
        self.ways = ways
        self.denominator = denominator
        #: Each table's grouping of the walked rows, by its fields (see :meth:`table`).
        self._groupings: dict[tuple[str, ...], tuple] = {}
        # Each field's number of codes (a code is never negative: ranks, suits, scores,
        # pictures, patterns), the radix of its cells.
        self.sizes = {
            name: len(texts) if texts is not None else int(codes.max(initial=0)) + 1
            for name, (codes, texts) in columns.items()
        }

    @staticmethod
    def of(game: Game, shoe: Shoe, fields: frozenset[str]) -> _Walk:
        """The walk of ``game`` on ``shoe`` for ``fields`` (checked first:
        :func:`check_deal_walk`)."""
        check_deal_walk(game, shoe, fields)
        suits = game.needs_suits(fields)
        by_card = _by_card(game, fields)
        if by_card:
            return _Walk._of_sequences(game, shoe, fields, suits)
        ranks, suit_index, ways = _by_hands(game, shoe)
        # The fields of the walked rows are a function of the rows alone (not of their
        # ways, which are the shoe's): worked out once for the same rows, and each
        # table's grouping of them with them (:meth:`table`).
        key = (id(game), fields, by_card, ranks.shape, ranks.tobytes())
        key += (None,) if suit_index is None else (suit_index.tobytes(),)
        kept = _layouts.get(key)
        if kept is None or kept[0] is not game:
            columns = game.columns(ranks, suit_index, fields)
            for codes, _ in columns.values():
                codes.flags.writeable = False  # (shared by every walk of the same rows)
            kept = _layouts.put(key, (game, columns, {}))
        walk = _Walk(kept[1], ways, shoe.sequences(game.cards))
        walk._groupings = kept[2]
        return walk

    @staticmethod
    def _of_sequences(game: Game, shoe: Shoe, fields: frozenset[str], suits: bool) -> _Walk:
        """The walk over sequences of card classes: which sequences a shoe allows depends
        only on each class's count up to the cards of a round (the walk takes no more),
        so the sequences, their fields' codes and the tables' groupings are worked out
        once per such layout (:data:`_sequence_layouts`), and each walk's ways are one
        product per sequence of its positions' cards left, in closed form: the count of
        the class at a position less the cards of that class dealt before it (none taken
        with replacement) -- the numbers the odometer (:func:`_deal_sequences_jit`)
        multiplies, the same exact integers (int64: no product exceeds the shoe's
        sequences, which fit)."""
        counts = _class_counts(shoe, suits)
        take = shoe.take
        reach = np.minimum(counts, game.cards if take else 1)
        key = (id(game), fields, suits, take, reach.tobytes())
        kept = _sequence_layouts.get(key)
        if kept is None or kept[0] is not game:
            ranks, suit_index, _ = _by_sequences(game, shoe, suits)
            classes = ranks if suit_index is None else ranks * 4 + suit_index
            # (the cards of the same class before each position: taken before it is dealt)
            before = np.zeros_like(classes)
            for position in range(1, classes.shape[1]):
                before[:, position] = (classes[:, :position] == classes[:, [position]]).sum(1)
            columns = game.columns(ranks, suit_index, fields)
            for codes, _ in columns.values():
                codes.flags.writeable = False  # (shared by every walk of the same layout)
            walk = _Walk(columns, classes[:, 0], 0)
            # (by position, each contiguous: a product along rows of two columns is slow)
            classes, before = np.ascontiguousarray(classes.T), np.ascontiguousarray(before.T)
            kept = _sequence_layouts.put(
                key, (game, columns, {}, walk.sizes, classes, before * take)
            )
        _, columns, groupings, sizes, classes, before = kept
        walk = _new_walk(_Walk)
        walk.columns, walk.sizes, walk._groupings = columns, sizes, groupings
        left = counts.take(classes)
        left -= before
        ways = left[0]
        for position in range(1, len(left)):
            ways = ways * left[position]
        walk.ways = ways
        walk.denominator = shoe.sequences(game.cards)
        return walk

    def table(self, names: tuple[str, ...]) -> OutcomeTable:
        """The table of the walk over the fields ``names`` only: a row per distinct value
        of them (in ascending order of their codes, the first the most significant), its
        ways the exact sum of the walked rows' (int64: no partial sum exceeds the
        denominator, which fits)."""
        grouping = self._groupings.get(names)
        if grouping is None:
            grouping = self._groupings[names] = self._grouping(names)
        order, starts, columns = grouping
        # (int64: no partial sum exceeds the denominator, which fits)
        total = np.add.reduceat(self.ways[order], starts) if len(order) else self.ways[:0]
        return OutcomeTable(dict(columns), total, self.denominator, "none")

    def tables(self, sets: tuple[frozenset[str], ...]) -> dict[frozenset[str], OutcomeTable]:
        """The table of the walk over each of ``sets``' fields (:meth:`table`, its fields
        in sorted order), their ways summed together: the walked rows' ways gathered in
        every table's order at once, then one reduceat (the same exact sums)."""
        if not len(self.ways):
            return {wanted: self.table(tuple(sorted(wanted))) for wanted in sets}
        key = (None, sets)  # (not a tuple of field names: no table's own grouping)
        fused = self._groupings.get(key)
        if fused is None:
            groupings = [
                self._groupings.setdefault(names, self._grouping(names))
                for names in (tuple(sorted(wanted)) for wanted in sets)
            ]
            orders = [order for order, _, _ in groupings]
            offsets = np.cumsum([0, *map(len, orders)])[:-1]
            starts = [
                start + offset for (_, start, _), offset in zip(groupings, offsets, strict=True)
            ]
            ends = np.cumsum([len(start) for start in starts]).tolist()
            fused = self._groupings[key] = (
                np.concatenate(orders),
                np.concatenate(starts),
                tuple(
                    zip(
                        sets,
                        [0, *ends[:-1]],
                        ends,
                        [columns for *_, columns in groupings],
                        strict=True,
                    )
                ),
            )
        order, starts, parts = fused
        total = np.add.reduceat(self.ways.take(order), starts)
        denominator = self.denominator
        return {
            wanted: OutcomeTable(dict(columns), total[start:end], denominator, "none")
            for wanted, start, end, columns in parts
        }

    def _grouping(
        self, names: tuple[str, ...]
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """The walked rows in the order of the table over ``names``' rows (``order``), the
        first of each table row's (``starts``), and the table's columns (read-only: shared
        by the tables of every walk of the same rows). Every walked row's ways are
        positive: a table row is a distinct value of ``names`` some walked row has."""
        codes = [self.columns[name][0] for name in names]
        sizes = [self.sizes[name] for name in names]
        n_rows = len(self.ways)
        if math.prod(sizes) <= _MOST_DENSE_CELLS:
            cell = np.ravel_multi_index(codes, sizes) if codes else np.zeros(n_rows, np.int64)
            present, inverse = np.unique(cell, return_inverse=True)
            kept = np.unravel_index(present, sizes) if codes else ()
        else:
            _, first, inverse = unique_rows(np.column_stack(codes))
            kept = [code[first] for code in codes]
        inverse = inverse.reshape(-1)
        order = np.argsort(inverse, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(inverse[order]) != 0]) if n_rows else order
        columns = {
            name: decoded(code, self.columns[name][1])
            for name, code in zip(names, kept, strict=True)
        }
        for column in columns.values():
            column.flags.writeable = False
        return order, starts, columns


def _by_sequences(
    game: Game, shoe: Shoe, suits: bool
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """Every ordered sequence of card classes: the ranks (and suits) by position, and
    each sequence's ways."""
    n_cards = game.cards
    bound = sequences_bound(game, shoe, suits)  # (within the budget: check_deal_walk)
    counts = _class_counts(shoe, suits)
    classes = np.empty((bound, n_cards), dtype=np.int64)
    ways = np.empty(bound, dtype=np.int64)
    written = _deal_sequences_jit(counts, n_cards, shoe.take, classes, ways)
    classes, ways = classes[:written], ways[:written]
    if suits:
        return CARD_RANKS[classes], CARD_SUITS[classes], ways
    return classes, None, ways


def _by_hands(game: Game, shoe: Shoe) -> tuple[np.ndarray, None, np.ndarray]:
    """Every pair of hands as multisets of ranks the shoe allows: the ranks by position
    (a hand's in ascending order: no field asks which came first), and each pair's
    ordered ways, the orders within each hand times the falling products of the ranks'
    counts (plain powers with replacement)."""
    counts = _class_counts(shoe, False)
    present = np.flatnonzero(counts)
    taken = {}
    for h, hand in enumerate(game.hands):
        combos = np.array(
            list(itertools.combinations_with_replacement(present, hand.cards)), dtype=np.int64
        )
        held = np.zeros((len(combos), len(counts)), dtype=np.int64)
        for column in range(hand.cards):
            np.add.at(held, (np.arange(len(combos)), combos[:, column]), 1)
        factorials = np.array([math.factorial(k) for k in range(hand.cards + 1)], dtype=np.int64)
        orders = math.factorial(hand.cards) // factorials[held].prod(axis=1)
        taken[h] = (combos, held, orders)
    (first, first_held, first_orders), (second, second_held, second_orders) = taken.values()
    i = np.repeat(np.arange(len(first)), len(second))
    j = np.tile(np.arange(len(second)), len(first))
    used = first_held[i] + second_held[j]
    # ways[c, k]: the ordered ways to take k cards of rank c (falling, or a power).
    most = game.cards
    k = np.arange(most + 1)
    if shoe.replacement:
        by_rank = counts[:, None] ** k[None, :]
    else:
        by_rank = np.ones((len(counts), most + 1), dtype=np.int64)
        for step in range(1, most + 1):
            by_rank[:, step] = by_rank[:, step - 1] * np.maximum(counts - (step - 1), 0)
    ways = by_rank[np.arange(len(counts))[None, :], used].prod(axis=1)
    ways = ways * first_orders[i] * second_orders[j]
    possible = ways > 0
    i, j, ways = i[possible], j[possible], ways[possible]
    ranks = np.empty((len(ways), game.cards), dtype=np.int64)
    hands = {0: first[i], 1: second[j]}
    for position, (h, number) in enumerate(game.positions):
        ranks[:, position] = hands[h][:, number - 1]
    return ranks, None, ways


#: The column of a decision game's table naming each row's information set (the point
#: values of the cards the decision sees, as one number): not a field of conditions.
INFORMATION = "_information"


@njit(cache=True)
def _drawn_cells_jit(
    value_counts, n_cards, take, owner, extra, draws, action_hands, seen, first_cards, cell_of,
    second_by_winner, out,
):  # fmt: skip
    """Every round of the first deal's ordered point values, played under each action:
    each hand's first cards (``owner[i]``: the hand of card ``i`` of the first deal,
    ``first_cards`` of them), then in hand order a hand's extra card where it takes one
    (``extra[h]`` and either its rule, ``draws[h, total]``, or the action giving it,
    ``action_hands[a] == h``), the next card of the sequence. The cards after the first
    deal are not walked one by one: a round that takes ``k`` of them weighs each of
    their values by the cards of it left, and the sequence's unused cards by the ordered
    ways to deal them from the rest (a falling product, or a power with replacement).
    Each round is added at its cell, ``cell_of[scores, cards taken]``: the winner (a
    function of the scores) and what the bets ask, the rest summed out as it goes. Where
    no bet asks the second hand's score (``second_by_winner``), its card after the deal
    is added by how the total it makes compares with the first hand's (three sums of
    the cards left by total, not each value).

    Parameters
    ----------
    value_counts : int64[10]
        Cards of each point value.
    n_cards, take : int
        Cards of a sequence (the most a round deals); what dealing one takes from its count
        (1, or 0 with replacement).
    owner : int64[first_cards]
    extra : int64[2]
    draws : bool[2, 10]
    action_hands : int64[A]
        For each action, the hand it gives its extra card, or -1.
    seen : int64[k]
        Positions (in the first deal) of the cards the decision sees (k may be 0).
    cell_of : int64[10, 10, 2, 2]
        The cell (of C) of each first hand's score, second's, extra cards taken by the
        first hand, by the second.
    second_by_winner : bool
        ``cell_of`` reads the second hand's score only through the winner.
    out : int64[A, C, 10**k]
        Zeroed by the caller; on return the ways of each (action, cell, information set).
    """
    n_classes = value_counts.shape[0]
    left = value_counts.copy()
    size = 0
    for c in range(n_classes):
        size += value_counts[c]
    choice = np.full(first_cards, -1, dtype=np.int64)
    weight = np.ones(first_cards + 1, dtype=np.int64)
    n_rest = n_cards - first_cards
    remaining = size - take * first_cards
    # The ordered ways to deal a sequence's unused cards from the rest, by cards taken.
    unused_of = np.ones(3, dtype=np.int64)
    for taken in range(3):
        for i in range(n_rest - taken):
            unused_of[taken] *= remaining - take * (taken + i)
    # The cards left by the total they bring the second hand to, and their running sums
    # (``below[t]``: the cards bringing it under t).
    by_total = np.zeros(10, dtype=np.int64)
    below = np.zeros(11, dtype=np.int64)
    depth = 0
    while True:
        depth = _next_sequence_jit(choice, left, weight, depth, take)
        if depth < 0:
            break
        first0 = 0
        first1 = 0
        for i in range(first_cards):
            if owner[i] == 0:
                first0 += choice[i]
            else:
                first1 += choice[i]
        first0 %= 10
        first1 %= 10
        info = 0
        for j in range(seen.shape[0]):
            info = info * 10 + choice[seen[j]]
        base = weight[first_cards]
        if second_by_winner:
            for t in range(10):
                by_total[t] = left[(t - first1) % 10]
                below[t + 1] = below[t] + by_total[t]
        for a in range(action_hands.shape[0]):
            cells = out[a, :, info]
            took0 = 1 if extra[0] == 1 and (draws[0, first0] or action_hands[a] == 0) else 0
            took1 = 1 if extra[1] == 1 and (draws[1, first1] or action_hands[a] == 1) else 0
            taken = took0 + took1
            ways = base * unused_of[taken]
            if taken == 0:
                cells[cell_of[first0, first1, 0, 0]] += ways
            elif taken == 1 and took0 == 1:
                for c1 in range(n_classes):
                    if left[c1] != 0:
                        cells[cell_of[(first0 + c1) % 10, first1, 1, 0]] += ways * left[c1]
            elif taken == 1 and second_by_winner:
                by_second = cell_of[first0, :, 0, 1]
                _add_by_winner(cells, by_second, first0, by_total, below, -1, 0, ways)
            elif taken == 1:
                for c1 in range(n_classes):
                    if left[c1] != 0:
                        cells[cell_of[first0, (first1 + c1) % 10, 0, 1]] += ways * left[c1]
            elif second_by_winner:
                for c1 in range(n_classes):
                    w1 = left[c1]
                    if w1 == 0:
                        continue
                    # (the first hand's card is one fewer of its total for the second)
                    total0 = (first0 + c1) % 10
                    by_second = cell_of[total0, :, 1, 1]
                    removed = (first1 + c1) % 10
                    _add_by_winner(
                        cells, by_second, total0, by_total, below, removed, take, ways * w1
                    )
            else:
                for c1 in range(n_classes):
                    w1 = left[c1]
                    if w1 == 0:
                        continue
                    left[c1] -= take
                    total0 = (first0 + c1) % 10
                    by_second = cell_of[total0, :, 1, 1]
                    ways1 = ways * w1
                    for c2 in range(n_classes):
                        if left[c2] != 0:
                            cells[by_second[(first1 + c2) % 10]] += ways1 * left[c2]
                    left[c1] += take
    return 0


@dataclass(frozen=True)
class SetCells:
    """The rounds of a game whose hands draw or decide played under one action, by
    cell and information set (:func:`drawn_cells`): ``ways[c, s]`` the ordered ways of
    the rounds in cell ``c`` of information set ``s`` (its code: the point values seen,
    one decimal digit a card; the one set 0 without a decision), over ``denominator``;
    ``columns`` the fields of each cell (the winner, and each hand's score and cards
    where a field asks; ``action`` with a decision), the same in every set. A bet's
    rules are settled on the cells, each once."""

    ways: np.ndarray
    columns: dict[str, np.ndarray]
    denominator: int


def drawn_cells(
    game: Game, shoe: Shoe, fields: frozenset[str], actions: tuple[Action | None, ...]
) -> dict[Action | None, SetCells]:
    """Every round of a game whose hands may take a card after the first deal (by their
    own rule, or by the player's action) or with a decision, played under each of
    ``actions``, over every ordered sequence of point values of the most cards a round
    deals (weighed as the other walks are, over N (N-1) ... (N-k+1)): per action, the
    ways of each information set (the values of the cards the decision sees) and cell
    (the winner, and the scores and cards taken that ``fields`` ask about), so that the
    best action can be chosen per set (:mod:`analyzer.analysis.decisions`).

    A card after the first deal is taken from the sequence in the order of the hands
    (the player's draw before the dealer's): under an action that draws, the dealer's
    third card is the sixth card, else the fifth; a card a round does not take is one of
    the sequence's unused cards, as punto banco's walk counts them. One walk of the first
    deal serves every action (:func:`_drawn_cells_jit`).

    Raises
    ------
    AnalyzerError
        A shoe too small for a round, or a field asking about single cards (their walk
        is :func:`drawn_tables`').
    """
    n_cards = game.most_cards
    if any(level >= 0 for level in card_levels(game, fields)):
        raise AnalyzerError(f"{game.name}: single cards are walked by drawn_tables")
    if not shoe.replacement and shoe.size < n_cards:
        raise AnalyzerError(
            f"{game.name}: a round deals up to {n_cards} cards, the shoe has {shoe.size}"
        )
    counts = np.ascontiguousarray(shoe.value_counts, dtype=np.int64)
    owner = np.array([h for h, _ in game.positions], dtype=np.int64)
    extra = np.array([hand.extra for hand in game.hands], dtype=np.int64)
    draws = np.zeros((2, 10), dtype=np.bool_)
    for h, hand in enumerate(game.hands):
        draws[h, list(hand.draws)] = True
    names = [hand.name for hand in game.hands]
    action_hands = np.array(
        [-1 if a is None or a.draws is None else names.index(a.draws) for a in actions],
        dtype=np.int64,
    )
    seen = _seen_positions(game)
    axes, cell_of = _cell_layout(game, fields)
    cells = np.zeros((len(actions), math.prod(axes), 10 ** len(seen)), dtype=np.int64)
    _drawn_cells_jit(
        counts, n_cards, shoe.take, owner, extra, draws, action_hands, seen, game.cards,
        cell_of, axes[2] == 1, cells,
    )  # fmt: skip
    denominator = shoe.sequences(n_cards)
    columns = _cell_columns(game, axes)
    out = {}
    for a, action in enumerate(actions):
        of_action = dict(columns)
        if game.decision is not None:  # (one action a table: its name, as text)
            of_action["action"] = np.full(cells.shape[1], action.name)
        out[action] = SetCells(cells[a], of_action, denominator)
    return out


def drawn_tables(
    game: Game, shoe: Shoe, fields: frozenset[str], actions: tuple[Action | None, ...]
) -> dict[Action | None, OutcomeTable]:
    """Every round of a game whose hands may take a card after the first deal (by their
    own rule, or by the player's action) or with a decision, played under each of
    ``actions``: a table per action (:func:`drawn_cells`' cells that hold rounds, a row
    each); with a decision, each row also carries its information set
    (:data:`INFORMATION`: the values seen, as one number).

    Where a field asks about single cards (``player_card1_rank``, ``dealer_card3_suit``:
    :func:`card_levels`), the walk goes by card classes instead: those cards by rank, or
    by rank and suit, only where asked, every other card by value
    (:func:`_drawn_class_cells_jit`), and each row also carries the fields of the cards
    asked about. The information set is still the point values of the cards the decision
    sees. Such a walk is refused over its budget (:func:`check_deal_walk`).
    """
    if any(level >= 0 for level in card_levels(game, fields)):
        check_deal_walk(game, shoe, fields, actions=len(actions))
        return _drawn_class_tables(game, shoe, fields, actions)
    tables = {}
    for action, cells in drawn_cells(game, shoe, fields, actions).items():
        flat = cells.ways.T.reshape(-1)  # (a row per cell holding rounds, by set then cell)
        found = np.flatnonzero(flat)
        info, cell = np.divmod(found, cells.ways.shape[0])
        columns = {name: column[cell] for name, column in cells.columns.items()}
        if game.decision is not None:  # (before the action, as the columns have been)
            columns = {name: columns[name] for name in columns if name != "action"}
            columns[INFORMATION] = info
            columns["action"] = cells.columns["action"][cell]
        tables[action] = OutcomeTable(columns, flat[found], cells.denominator, "none")
    return tables


@njit(cache=True)
def _add_by_winner(cells, by_second, total0, by_total, below, removed, take, ways):
    """Add ``ways`` times the cards left bringing the second hand under, to, and over
    ``total0`` (``by_total``, ``below``: :func:`_drawn_cells_jit`; ``take`` fewer of
    those bringing it to ``removed``, -1 for none) at the cells ``by_second`` gives a
    second hand's total of each comparison."""
    lower = below[total0]
    tie = by_total[total0]
    higher = below[10] - lower - tie
    if removed >= 0:
        if removed < total0:
            lower -= take
        elif removed > total0:
            higher -= take
        else:
            tie -= take
    if lower != 0:  # (then total0 > 0)
        cells[by_second[0]] += ways * lower
    if tie != 0:
        cells[by_second[total0]] += ways * tie
    if higher != 0:  # (then total0 < 9)
        cells[by_second[9]] += ways * higher
    return 0


def _cell_layout(game: Game, fields: frozenset[str]) -> tuple[tuple[int, ...], np.ndarray]:
    """The cells of an information set of :func:`drawn_cells` for ``fields``: their axes
    (winner, each hand's score, each hand's extra cards taken; an axis of one where no
    field asks), and the cell of each (score, score, taken, taken) as the kernel adds
    rounds (:func:`_drawn_cells_jit`; the winner read off the scores as it compares them)."""
    # The cards a hand took are told apart only where a bet asks how many it holds, a
    # hand's score only where a bet asks it: otherwise they are summed out.
    keep_took = [bool(hand.extra) and f"{hand.name}_cards" in fields for hand in game.hands]
    keep_score = [f"{hand.name}_score" in fields for hand in game.hands]
    axes = (3, *(10 if k else 1 for k in keep_score), *(2 if k else 1 for k in keep_took))
    s0, s1, t0, t1 = np.indices((10, 10, 2, 2))
    winner = np.where(s0 > s1, 0, np.where(s1 > s0, 1, 2))
    kept = (s0 * keep_score[0], s1 * keep_score[1], t0 * keep_took[0], t1 * keep_took[1])
    cell_of = np.ravel_multi_index((winner, *kept), axes).astype(np.int64)
    return axes, cell_of


def _cell_columns(game: Game, axes: tuple[int, ...]) -> dict[str, np.ndarray]:
    """The columns of every cell of :func:`_cell_layout`'s ``axes`` (winner, each hand's
    score and extra cards, the latter two only where kept), in their order."""
    winner, first_total, second_total, first_took, second_took = np.unravel_index(
        np.arange(math.prod(axes)), axes
    )
    columns: dict[str, tuple[np.ndarray, tuple[str, ...] | None]] = {
        "winner": (winner, game.winners)
    }
    took = (first_took, second_took)
    for h, (hand, total) in enumerate(zip(game.hands, (first_total, second_total), strict=True)):
        if axes[1 + h] == 10:
            columns[f"{hand.name}_score"] = (total, None)
        if axes[3 + h] == 2:
            columns[f"{hand.name}_cards"] = (hand.cards + took[h], None)
    return {name: decoded(codes, texts) for name, (codes, texts) in columns.items()}


# -- The walk by card classes: single cards' fields of a game whose hands draw or decide ----

#: How finely the walk by card classes tells a card apart: its point value (10 classes),
#: its rank (13: the ten-value cards split into 10, J, Q, K) or its rank and suit (52).
#: A card no field asks about is walked by value (its value scores its hand).
LEVELS = ("value", "rank", "suit")
#: The classes of each level.
LEVEL_CLASSES = (10, 13, 52)
#: Per level, each class's point value (a rank and suit class is rank * 4 + suit).
_CLASS_VALUES = (np.arange(10, dtype=np.int64), RANK_VALUES, RANK_VALUES[CARD_RANKS])
#: The most cells (ways of each action, kept cards' classes, winner, scores, cards
#: taken) the walk by card classes may hold: 8 bytes each, a quarter of a gigabyte.
MAX_DRAWN_CELLS = 32_000_000
#: The most steps it may take (:func:`drawn_bounds`: a few seconds; it holds none of them).
MAX_DRAWN_STEPS = 400_000_000
_LEVEL_OF = {"value": 0, "rank": 1, "suit": 2, "colour": 2}


def card_levels(game: Game, fields: frozenset[str]) -> tuple[int, ...]:
    """Per card slot of ``game`` (:attr:`~analyzer.game.games.Game.card_slots`), the
    index in :data:`LEVELS` of how finely ``fields`` ask about its card (-1: no field
    does): its ``_value`` by value, its ``_rank`` by rank, its ``_suit`` or ``_colour``
    by rank and suit.

    Examples
    --------
    >>> from analyzer.game.games import named_game
    >>> lucky = named_game("lucky-draw-baccarat")
    >>> card_levels(lucky, frozenset({"player_card1_rank", "player_card3_suit", "winner"}))
    (1, -1, -1, -1, 2, -1)
    """
    levels = [-1] * len(game.card_slots)
    for slot in range(len(levels)):
        card = game.slot_name(slot)
        for attribute, level in _LEVEL_OF.items():
            if f"{card}_{attribute}" in fields:
                levels[slot] = max(levels[slot], level)
    return tuple(levels)


@dataclass(frozen=True)
class _CardWalk:
    """What the walk by card classes of ``game`` for some fields walks and keeps: each
    slot's level (every slot walked at least by value); the slots kept in a row's key (a
    field asks about them, or the decision sees them), each class's code there (classes
    alike in every attribute asked, and the value where seen, share one: ``code_of``,
    int64[slots, 52]), a class of each code (``example``), the codes' radix (one more
    for "not taken" after the first deal) and stride; and the sizes of the winner, score
    and cards-taken axes (1 where no field asks)."""

    levels: tuple[int, ...]
    kept: tuple[int, ...]
    radix: tuple[int, ...]
    stride: tuple[int, ...]
    axes: tuple[int, ...]
    code_of: np.ndarray
    example: tuple[np.ndarray, ...]

    @property
    def keys(self) -> int:
        return math.prod(r for r in self.radix if r)


def _class_attributes(level: int) -> dict[str, np.ndarray]:
    """Each class of ``level``'s point value, rank and suit (-1 where the level does not
    tell it), and colour code."""
    classes = np.arange(LEVEL_CLASSES[level])
    ranks = classes // 4 if level == 2 else classes if level == 1 else np.full(10, -1)
    suits = classes % 4 if level == 2 else np.full(len(classes), -1)
    return {
        "value": _CLASS_VALUES[level],
        "rank": ranks,
        "suit": suits,
        "colour": np.where(suits >= 0, COLOUR_OF_SUIT[np.maximum(suits, 0)], -1),
    }


def _card_walk(game: Game, fields: frozenset[str]) -> _CardWalk:
    asked = card_levels(game, fields)
    seen = set(_seen_positions(game).tolist())
    levels = tuple(max(level, 0) for level in asked)
    kept = tuple(slot for slot, level in enumerate(asked) if level >= 0 or slot in seen)
    radix = [0] * len(levels)
    stride = [0] * len(levels)
    code_of = np.zeros((len(levels), 52), dtype=np.int64)
    example: list[np.ndarray] = [np.zeros(0, dtype=np.int64)] * len(levels)
    step = 1
    for slot in reversed(kept):
        card = game.slot_name(slot)
        told = _class_attributes(levels[slot])
        keys = [
            told[attribute]
            for attribute in ("value", "rank", "suit", "colour")
            if f"{card}_{attribute}" in fields or (attribute == "value" and slot in seen)
        ]
        _, first, inverse = np.unique(
            np.column_stack(keys), axis=0, return_index=True, return_inverse=True
        )
        # (codes in the order of their first class: a code's class is its first)
        order = np.argsort(first)
        rank_of = np.empty_like(order)
        rank_of[order] = np.arange(len(order))
        code_of[slot, : LEVEL_CLASSES[levels[slot]]] = rank_of[inverse.reshape(-1)]
        example[slot] = first[order]
        radix[slot] = len(first) + (1 if slot >= game.cards else 0)
        stride[slot] = step
        step *= radix[slot]
    axes = (
        3 if "winner" in fields else 1,
        *(10 if f"{hand.name}_score" in fields else 1 for hand in game.hands),
        *(2 if hand.extra and f"{hand.name}_cards" in fields else 1 for hand in game.hands),
    )
    return _CardWalk(levels, kept, tuple(radix), tuple(stride), axes, code_of, tuple(example))


def _level_counts(shoe: Shoe) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The shoe's cards by value, by rank, and by rank and suit (zeros where the suits
    are unknown: no level-2 card is walked then), as copies the walk may change."""
    suits = np.zeros(52, dtype=np.int64)
    if shoe.suit_counts is not None:
        suits[:] = shoe.suit_counts.reshape(-1)
    return (
        np.array(shoe.value_counts, dtype=np.int64),
        np.array(shoe.rank_counts, dtype=np.int64),
        suits,
    )


def drawn_bounds(
    game: Game, shoe: Shoe, fields: frozenset[str], actions: int | None = None
) -> tuple[int, int]:
    """What the walk by card classes of ``game`` on ``shoe`` for ``fields`` takes at
    most (:func:`_drawn_class_cells_jit`): its steps (the rounds it plays by value, each
    set of values of the cards asked by rank or suit with every sequence of the other
    cards' values, under each action; and the cells it adds for each sequence of classes
    of the cards asked by rank or suit) and the cells it holds (:data:`MAX_DRAWN_STEPS`,
    :data:`MAX_DRAWN_CELLS`), under ``actions`` actions (the decision's, else one). (0, 0)
    where no field asks about a single card: the walk by values serves them."""
    if all(level < 0 for level in card_levels(game, fields)):
        return 0, 0
    walk = _card_walk(game, fields)
    if actions is None:
        actions = 1 if game.decision is None else len(game.decision.actions)
    present = [int(np.count_nonzero(counts)) for counts in _level_counts(shoe)]
    fine = [level for level in walk.levels if level > 0]
    by_value = present[0] ** len(walk.levels) * actions
    by_class = math.prod(present[level] for level in fine)
    coarse_keys = math.prod(walk.radix[slot] for slot in walk.kept if walk.levels[slot] == 0)
    entries = actions * coarse_keys * math.prod(walk.axes[:3]) * 4
    steps = by_value + (by_class * entries if fine else 0)
    return steps, actions * walk.keys * math.prod(walk.axes)


@njit(cache=True)
def _next_classes_jit(choice, level, target, left1, left2, weight, depth, take, rank_values):
    """:func:`_next_sequence_jit` over positions each walked by rank (``level`` 1) or by
    rank and suit (2), the cards by suit first, and at each position only through the
    classes of point value ``target[depth]``. A card's count left is its class's less
    the cards before it in the class, each of a class inside it (a rank and suit inside a
    rank), so every weight is exact."""
    n_positions = choice.shape[0]
    while depth >= 0:
        fine = level[depth] == 2
        c = choice[depth]
        if c >= 0:  # put back the card this position held
            if fine:
                left2[c] += take
                left1[c // 4] += take
            else:
                left1[c] += take
        n_class = 52 if fine else 13
        want = target[depth]
        c += 1
        while c < n_class:
            if fine:
                if left2[c] != 0 and rank_values[c // 4] == want:
                    break
            elif left1[c] != 0 and rank_values[c] == want:
                break
            c += 1
        if c == n_class:
            choice[depth] = -1
            depth -= 1
            continue
        choice[depth] = c
        if fine:
            weight[depth + 1] = weight[depth] * left2[c]
            left2[c] -= take
            left1[c // 4] -= take
        else:
            weight[depth + 1] = weight[depth] * left1[c]
            left1[c] -= take
        if depth + 1 == n_positions:
            return depth
        depth += 1
    return -1


@njit(cache=True)
def _add_round(table, a, at, total0, total1, took0, took1, ways):
    """Add ``ways`` rounds of these totals under action ``a`` at small key ``at`` to the
    table of :func:`_drawn_class_cells_jit` (the winner and scores where kept)."""
    winner = 0 if total0 > total1 else 1 if total1 > total0 else 2
    table[
        a,
        at,
        winner if table.shape[2] == 3 else 0,
        total0 if table.shape[3] == 10 else 0,
        total1 if table.shape[4] == 10 else 0,
        took0,
        took1,
    ] += ways


@njit(cache=True)
def _drawn_class_cells_jit(
    left0, left1, left2, take, fine, fine_level, coarse, tail, first_cards, owner,
    extra_hand, draws, action_hands, radix, stride, code_of, rank_values, out,
):  # fmt: skip
    """Every round of a game whose hands draw or decide, its cards walked by class
    (:data:`LEVELS`), played under each action: every sequence of the most cards a round
    deals, a slot a card (:attr:`~analyzer.game.games.Game.card_slots`: the first deal,
    then each hand's card after it, whether or not the round takes it; one the round
    does not take is one of the sequence's unused cards), weighed by its ordered ways.

    The slots asked by rank or suit (``fine``) are walked by class, the cards by suit
    first; the others (``coarse``) by value. What the coarse cards bring depends on the
    fine cards only through their point values (the values they leave in the shoe, the
    totals), so for each set of the fine cards' values the rounds of every sequence of
    the coarse cards' values are played once under each action, into a small table by
    (action, coarse cards kept, winner, scores, cards taken); each sequence of fine
    classes of those values then adds that table, times its ways, at its own key. A
    sequence's ways are the fine classes' (each count less the cards before it inside
    the class) times the coarse values' (each count less every card before it of the
    value): exact, the fine cards counted first.

    Parameters
    ----------
    left0, left1, left2 : int64[10], int64[13], int64[52]
        The shoe's cards by value, rank, rank and suit (copies: changed as it walks).
    take : int
    fine, coarse, tail : int64[F], int64[C], int64[T]
        The slots walked by class (by suit first), those walked by value, and the cards
        after the deal no field asks about (weighed by their values' cards left).
    fine_level : int64[F]
        The level of each fine slot (1 rank, 2 rank and suit).
    first_cards : int
    owner : int64[first_cards]
        The hand of each card of the first deal.
    extra_hand : int64[S - first_cards]
        The hand of each slot after the first deal.
    draws : bool[2, 10]
    action_hands : int64[A]
    radix, stride : int64[S]
        Each slot's place in a row's key (radix 0: not kept); a slot after the first
        deal that a round does not take has the digit ``radix - 1``.
    code_of : int64[S, 52]
        A kept slot's digit for each class of its level.
    rank_values : int64[13]
    out : int64[A, K, W, S0, S1, T0, T1]
        Zeroed by the caller: the ways of each (action, key, winner, first hand's score,
        second's, cards taken by each), an axis of one where no field asks it.
    """
    n_slots = radix.shape[0]
    n_fine = fine.shape[0]
    n_coarse = coarse.shape[0]
    n_tail = tail.shape[0]
    in_tail = np.zeros(n_slots, dtype=np.bool_)
    for slot in tail:
        in_tail[slot] = True
    n_actions = out.shape[0]
    keep_took0 = out.shape[5] == 2
    keep_took1 = out.shape[6] == 2
    # The coarse slots kept, numbered into a small key of their own.
    local = np.zeros(n_slots, dtype=np.int64)
    n_local = 1
    for j in range(n_coarse - 1, -1, -1):
        slot = coarse[j]
        if radix[slot] > 0:
            local[slot] = n_local
            n_local *= radix[slot]
    table = np.zeros(
        (n_actions, n_local, out.shape[2], out.shape[3], out.shape[4], 2, 2), dtype=np.int64
    )
    offset_of = np.zeros(n_local, dtype=np.int64)  # each small key's place in a row's key
    value = np.zeros(n_slots, dtype=np.int64)
    cls = np.zeros(n_slots, dtype=np.int64)
    target = np.zeros(n_fine, dtype=np.int64)
    vleft = np.zeros(10, dtype=np.int64)
    coarse_choice = np.full(n_coarse, -1, dtype=np.int64)
    coarse_weight = np.ones(n_coarse + 1, dtype=np.int64)
    fine_choice = np.full(n_fine, -1, dtype=np.int64)
    fine_weight = np.ones(n_fine + 1, dtype=np.int64)
    n_entries = table.size
    e_action = np.zeros(n_entries, dtype=np.int64)
    e_offset = np.zeros(n_entries, dtype=np.int64)
    e_rest = np.zeros((n_entries, 5), dtype=np.int64)
    e_ways = np.zeros(n_entries, dtype=np.int64)
    for u in range(10**n_fine):
        code = u
        for d in range(n_fine - 1, -1, -1):
            target[d] = code % 10
            code //= 10
        for v in range(10):
            vleft[v] = left0[v]
        possible = True
        for d in range(n_fine):
            if vleft[target[d]] < 1:
                possible = False
            vleft[target[d]] -= take
            value[fine[d]] = target[d]
        if not possible:
            continue
        # Every sequence of the coarse cards' values, played under each action (a card
        # after the deal that no field asks about, taken, by its value's cards left;
        # not taken, as one of the unused cards).
        table[:] = 0
        depth = 0
        while True:
            if n_coarse > 0:
                depth = _next_sequence_jit(coarse_choice, vleft, coarse_weight, depth, take)
                if depth < 0:
                    break
            ways = coarse_weight[n_coarse]
            remaining = 0
            for v in range(10):
                remaining += vleft[v]
            for j in range(n_coarse):
                value[coarse[j]] = coarse_choice[j]
            first0 = 0
            first1 = 0
            key = 0
            offset = 0
            for i in range(first_cards):
                if owner[i] == 0:
                    first0 += value[i]
                else:
                    first1 += value[i]
                if local[i] > 0:
                    key += code_of[i, value[i]] * local[i]
                    offset += code_of[i, value[i]] * stride[i]
            first0 %= 10
            first1 %= 10
            for a in range(n_actions):
                total0 = first0
                total1 = first1
                took0 = 0
                took1 = 0
                at = key
                placed = offset
                tail_taken = 0
                tail_hand0 = 0
                tail_hand1 = 0
                for e in range(n_slots - first_cards):
                    slot = first_cards + e
                    h = extra_hand[e]
                    took = draws[h, first0 if h == 0 else first1] or action_hands[a] == h
                    if took:
                        if h == 0:
                            took0 = 1
                        else:
                            took1 = 1
                        if in_tail[slot]:
                            if tail_taken == 0:
                                tail_hand0 = h
                            else:
                                tail_hand1 = h
                            tail_taken += 1
                        elif h == 0:
                            total0 = (total0 + value[slot]) % 10
                        else:
                            total1 = (total1 + value[slot]) % 10
                    if local[slot] > 0:
                        digit = code_of[slot, value[slot]] if took else radix[slot] - 1
                        at += digit * local[slot]
                        placed += digit * stride[slot]
                offset_of[at] = placed
                unused = 1
                for i in range(n_tail - tail_taken):
                    unused *= remaining - take * (tail_taken + i)
                if tail_taken == 0:
                    _add_round(table, a, at, total0, total1, took0, took1, ways * unused)
                    continue
                for c1 in range(10):
                    w1 = vleft[c1]
                    if w1 == 0:
                        continue
                    one0 = (total0 + c1) % 10 if tail_hand0 == 0 else total0
                    one1 = (total1 + c1) % 10 if tail_hand0 == 1 else total1
                    if tail_taken == 1:
                        _add_round(table, a, at, one0, one1, took0, took1, ways * w1 * unused)
                        continue
                    vleft[c1] -= take
                    for c2 in range(10):
                        w2 = vleft[c2]
                        if w2 == 0:
                            continue
                        two0 = (one0 + c2) % 10 if tail_hand1 == 0 else one0
                        two1 = (one1 + c2) % 10 if tail_hand1 == 1 else one1
                        _add_round(table, a, at, two0, two1, took0, took1, ways * w1 * w2 * unused)
                    vleft[c1] += take
            if n_coarse == 0:
                break
        # The table's cells, listed once for every sequence of fine classes to add.
        n = 0
        flat = table.reshape(-1)
        for index in range(flat.shape[0]):
            if flat[index] == 0:
                continue
            rest = index
            t1 = rest % 2
            rest //= 2
            t0 = rest % 2
            rest //= 2
            s1 = rest % out.shape[4]
            rest //= out.shape[4]
            s0 = rest % out.shape[3]
            rest //= out.shape[3]
            w = rest % out.shape[2]
            rest //= out.shape[2]
            at = rest % n_local
            e_action[n] = rest // n_local
            e_offset[n] = offset_of[at]
            e_rest[n, 0] = w
            e_rest[n, 1] = s0
            e_rest[n, 2] = s1
            e_rest[n, 3] = t0
            e_rest[n, 4] = t1
            e_ways[n] = flat[index]
            n += 1
        # Every sequence of fine classes of these values.
        depth = 0
        while True:
            if n_fine > 0:
                depth = _next_classes_jit(
                    fine_choice, fine_level, target, left1, left2, fine_weight, depth, take,
                    rank_values,
                )  # fmt: skip
                if depth < 0:
                    break
            ways = fine_weight[n_fine]
            base = 0
            for d in range(n_fine):
                slot = fine[d]
                cls[slot] = fine_choice[d]
                if slot < first_cards:
                    base += code_of[slot, fine_choice[d]] * stride[slot]
            for k in range(n):
                key = base + e_offset[k]
                for d in range(n_fine):
                    slot = fine[d]
                    if slot >= first_cards:  # a card after the deal: taken or not
                        taken = e_rest[k, 3 + extra_hand[slot - first_cards]]
                        digit = code_of[slot, cls[slot]] if taken == 1 else radix[slot] - 1
                        key += digit * stride[slot]
                out[
                    e_action[k],
                    key,
                    e_rest[k, 0],
                    e_rest[k, 1],
                    e_rest[k, 2],
                    e_rest[k, 3] if keep_took0 else 0,
                    e_rest[k, 4] if keep_took1 else 0,
                ] += ways * e_ways[k]
            if n_fine == 0:
                break
    return 0


def _drawn_class_tables(
    game: Game, shoe: Shoe, fields: frozenset[str], actions: tuple[Action | None, ...]
) -> dict[Action | None, OutcomeTable]:
    """:func:`drawn_tables` where a field asks about single cards: the walk by card
    classes (:func:`_drawn_class_cells_jit`), each row its kept cards' fields."""
    walk = _card_walk(game, fields)
    n_slots = len(game.card_slots)
    # The cards by suit first, then by rank (the weights' order), each in slot order.
    fine = sorted((s for s in range(n_slots) if walk.levels[s] > 0), key=lambda s: -walk.levels[s])
    # Cards after the deal no field asks about are not walked: weighed where taken.
    tail = [s for s in range(game.cards, n_slots) if walk.levels[s] == 0 and not walk.radix[s]]
    coarse = [s for s in range(n_slots) if walk.levels[s] == 0 and s not in tail]
    names = [hand.name for hand in game.hands]
    action_hands = np.array(
        [-1 if a is None or a.draws is None else names.index(a.draws) for a in actions],
        dtype=np.int64,
    )
    draws = np.zeros((2, 10), dtype=np.bool_)
    for h, hand in enumerate(game.hands):
        draws[h, list(hand.draws)] = True
    cells = np.zeros((len(actions), walk.keys, *walk.axes), dtype=np.int64)
    _drawn_class_cells_jit(
        *_level_counts(shoe),
        shoe.take,
        np.array(fine, dtype=np.int64),
        np.array([walk.levels[s] for s in fine], dtype=np.int64),
        np.array(coarse, dtype=np.int64),
        np.array(tail, dtype=np.int64),
        game.cards,
        np.array([h for h, _ in game.positions], dtype=np.int64),
        np.array([h for h, _ in game.card_slots[game.cards :]], dtype=np.int64),
        draws,
        action_hands,
        np.array(walk.radix, dtype=np.int64),
        np.array(walk.stride, dtype=np.int64),
        walk.code_of,
        np.array(RANK_VALUES, dtype=np.int64),
        cells,
    )
    denominator = shoe.sequences(game.most_cards)
    seen = _seen_positions(game).tolist()
    # Per kept slot, each digit's card (a class of its code: what the fields ask of it
    # is the code's), -1 for "not taken".
    looked_up = {}
    for slot in walk.kept:
        level, examples = walk.levels[slot], walk.example[slot]
        card = {
            "values": _CLASS_VALUES[level][examples],
            "ranks": examples // 4 if level == 2 else examples if level == 1 else None,
            "suits": examples % 4 if level == 2 else None,
        }
        looked_up[slot] = {
            name: None
            if column is None
            else np.append(column, -1)
            if slot >= game.cards
            # (a card of the first deal is always taken)
            else column
            for name, column in card.items()
        }
    inner = math.prod(walk.axes)
    tables = {}
    for a, action in enumerate(actions):
        flat = cells[a].reshape(-1)
        found = np.flatnonzero(flat)
        ways = flat[found]
        key = found // inner
        winner, score0, score1, took0, took1 = np.unravel_index(found % inner, walk.axes)
        columns: dict[str, np.ndarray] = {}
        if walk.axes[0] == 3:
            columns["winner"] = decoded(winner, game.winners)
        for h, (hand, score, took) in enumerate(
            zip(game.hands, (score0, score1), (took0, took1), strict=True)
        ):
            if walk.axes[1 + h] == 10:
                columns[f"{hand.name}_score"] = score.astype(np.int64)
            if walk.axes[3 + h] == 2:
                columns[f"{hand.name}_cards"] = (hand.cards + took).astype(np.int64)
        values_of = {}
        for slot in walk.kept:
            digit = (key // walk.stride[slot]) % walk.radix[slot]
            card = {
                name: None if column is None else column[digit]
                for name, column in looked_up[slot].items()
            }
            values_of[slot] = card["values"]
            for name, (codes, texts) in game.slot_columns(
                slot, card["values"], card["ranks"], card["suits"], fields
            ).items():
                columns[name] = decoded(codes, texts)
        if game.decision is not None:
            info = np.zeros(len(ways), dtype=np.int64)
            for position in seen:
                info = info * 10 + values_of[position]
            columns[INFORMATION] = info
            columns["action"] = np.full(len(ways), action.name)
        tables[action] = OutcomeTable(columns, ways, denominator, "none")
    return tables


def information_values(seen: int, codes: np.ndarray) -> list[tuple[int, ...]]:
    """The point values of the ``seen`` cards a decision sees, from information sets'
    codes (one decimal digit a card, the first card's the most significant)."""
    digits = [(codes // 10 ** (seen - 1 - i)) % 10 for i in range(seen)]
    return (
        list(zip(*(column.tolist() for column in digits), strict=True))
        if seen
        else [() for _ in codes]
    )


#: The first four cards of punto banco in dealing order, as a decision names them.
FIRST_FOUR = ("player_card1", "banker_card1", "player_card2", "banker_card2")


@njit(cache=True)
def _punto_banco_cells_jit(value_counts, take, third_card, out):
    """Every punto banco round by the point values of its first four cards (Player,
    Banker, Player, Banker), played out by the tableau ``third_card`` (10 x 10 x 12, as
    :class:`~analyzer.game.rules.Tableau` holds it): the ways of each (first four values,
    winner: 0 Player, 1 Banker, 2 tie, Player's score, Banker's score). The third cards
    are not walked as positions: each value is weighed by its cards left, and the
    sequence's unused cards by the ordered ways to deal them from the rest, so every
    count is over the six-card sequences, as the enumerator's are.

    Parameters
    ----------
    value_counts : int64[10]
    take : int
        1, or 0 with replacement.
    third_card : bool[10, 10, 12]
    out : int64[10, 10, 10, 10, 3, S, S]
        Zeroed by the caller; ``S`` 10, or 1 where no bet asks a score (the scores then
        summed out as the walk goes, the Banker's third card after the Player's added by
        how the total it makes compares with the Player's: three sums, not each value).
    """
    n_classes = value_counts.shape[0]
    left = value_counts.copy()
    size = 0
    for c in range(n_classes):
        size += value_counts[c]
    keep = out.shape[5] == 10
    choice = np.full(4, -1, dtype=np.int64)
    weight = np.ones(5, dtype=np.int64)
    remaining = size - 4 * take
    # The cards left by the total they bring the Banker to, and their running sums
    # (``below[t]``: the cards bringing it under t).
    by_total = np.zeros(10, dtype=np.int64)
    below = np.zeros(11, dtype=np.int64)
    depth = 0
    while True:
        depth = _next_sequence_jit(choice, left, weight, depth, take)
        if depth < 0:
            break
        p1, b1, p2, b2 = choice[0], choice[1], choice[2], choice[3]
        player = (p1 + p2) % 10
        banker = (b1 + b2) % 10
        base = weight[4]
        cell = out[p1, b1, p2, b2]
        if third_card[player, banker, 11]:
            if not keep:
                for t in range(10):
                    by_total[t] = left[(t - banker) % 10]
                    below[t + 1] = below[t] + by_total[t]
            for c5 in range(n_classes):
                w5 = left[c5]
                if w5 == 0:
                    continue
                ps = (player + c5) % 10
                if third_card[player, banker, c5] and not keep:
                    # Under ps the Player wins, over it the Banker (the fifth card one
                    # fewer of the total it brings the Banker to).
                    lower = below[ps]
                    tie = by_total[ps]
                    higher = below[10] - lower - tie
                    removed = (banker + c5) % 10
                    if removed < ps:
                        lower -= take
                    elif removed > ps:
                        higher -= take
                    else:
                        tie -= take
                    cell[0, 0, 0] += base * w5 * lower
                    cell[1, 0, 0] += base * w5 * higher
                    cell[2, 0, 0] += base * w5 * tie
                elif third_card[player, banker, c5]:
                    left[c5] -= take
                    for c6 in range(n_classes):
                        w6 = left[c6]
                        if w6 == 0:
                            continue
                        bs = (banker + c6) % 10
                        winner = 0 if ps > bs else 1 if bs > ps else 2
                        cell[winner, ps if keep else 0, bs if keep else 0] += base * w5 * w6
                    left[c5] += take
                else:
                    unused = remaining - take
                    winner = 0 if ps > banker else 1 if banker > ps else 2
                    cell[winner, ps if keep else 0, banker if keep else 0] += base * w5 * unused
        elif third_card[player, banker, 10]:
            for c5 in range(n_classes):
                w5 = left[c5]
                if w5 == 0:
                    continue
                bs = (banker + c5) % 10
                unused = remaining - take
                winner = 0 if player > bs else 1 if bs > player else 2
                cell[winner, player if keep else 0, bs if keep else 0] += base * w5 * unused
        else:
            unused = remaining * (remaining - take)
            winner = 0 if player > banker else 1 if banker > player else 2
            cell[winner, player if keep else 0, banker if keep else 0] += base * unused
    return 0


def punto_banco_cells(shoe: Shoe, third_card: np.ndarray, scores: bool) -> np.ndarray:
    """Every punto banco round by its first four cards' point values: the ways of each
    (Player card 1, Banker card 1, Player card 2, Banker card 2, winner, Player's score,
    Banker's score), over the shoe's six-card sequences (:meth:`Shoe.sequences`); the
    scores summed out (axes of one) unless ``scores``. What a decision after the first
    four cards is solved on (:mod:`analyzer.analysis.decisions`).

    Raises
    ------
    AnalyzerError
        A shoe too small for a round.
    """
    if not shoe.replacement and shoe.size < 6:
        raise AnalyzerError(f"a round deals up to 6 cards, the shoe has {shoe.size}")
    counts = np.ascontiguousarray(shoe.value_counts, dtype=np.int64)
    side = 10 if scores else 1
    out = np.zeros((10, 10, 10, 10, 3, side, side), dtype=np.int64)
    table = np.ascontiguousarray(third_card, dtype=np.bool_)
    _punto_banco_cells_jit(counts, shoe.take, table, out)
    return out


# -- The best action of each information set of a decision --------------------------------


@njit(cache=True)
def _best_actions_jit(sums, reads, nets, stakes, fold_nets, folds, ways, value, best):
    """Each information set's exact net under each action and its best action, in one
    pass over the sets.

    Parameters
    ----------
    sums : int64[K, R, S]
        The ways of each row (a cell of the walk, or a rule's ways) in each set, one
        array per distinct rounds the actions play (an action that deals no card shares
        another's).
    reads : int64[A]
        The array of ``sums`` each action's rounds are.
    nets : int64[K, R]
        Each row's net per base stake (its rule's), in units of a common fraction of a
        stake, per array of ``sums``.
    stakes : int64[A]
        Each action's stake.
    fold_nets, folds : int64[A], bool[A]
        Where ``folds[a]``, action ``a`` folds: its net is ``fold_nets[a]`` a way.
    ways : int64[S]
        On return, each set's ways (its first action's rounds).
    value : int64[A, S]
        On return, each action's net in each set (the sum over its ways).
    best : int64[S]
        On return, the best action of each set, the first listed where two are equal.
    """
    n_kinds, n_rules, n_sets = sums.shape
    per_stake = np.zeros(n_kinds, dtype=np.int64)
    for s in range(n_sets):
        total = 0
        for r in range(n_rules):
            total += sums[reads[0], r, s]
        ways[s] = total
        for k in range(n_kinds):
            net = 0
            for r in range(n_rules):
                net += sums[k, r, s] * nets[k, r]
            per_stake[k] = net
        top = 0
        for a in range(stakes.shape[0]):
            v = total * fold_nets[a] if folds[a] else per_stake[reads[a]] * stakes[a]
            value[a, s] = v
            if a == 0 or v > top:
                top = v
                best[s] = a
    return 0


@njit(cache=True)
def _played_ways_jit(sums, reads, folds, ways, played, bounds, taken):
    """The ways of each row under the action played, per reveal: ``taken[v, a, r]``
    (int64[V, A, R], zeroed by the caller) the ways of row ``r`` in the sets of reveal
    ``v`` (rows ``bounds[v]`` to ``bounds[v + 1]``) where action ``played[s]`` is ``a``;
    a fold's in ``taken[v, a, 0]``, its sets' ways (``ways``). ``sums``, ``reads`` and
    ``folds`` as :func:`_best_actions_jit` reads them."""
    for v in range(bounds.shape[0] - 1):
        for s in range(bounds[v], bounds[v + 1]):
            a = played[s]
            if folds[a]:
                taken[v, a, 0] += ways[s]
                continue
            k = reads[a]
            for r in range(sums.shape[1]):
                taken[v, a, r] += sums[k, r, s]
    return 0


def best_actions(
    sums: np.ndarray,
    reads: np.ndarray,
    nets: np.ndarray,
    stakes: np.ndarray,
    fold_nets: np.ndarray,
    folds: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each information set's ways, exact net under each action and best action
    (:mod:`analyzer.analysis.decisions` solves a bet with it), in int64: the caller
    checks that no net reaches 2**62.

    Parameters
    ----------
    sums : int64 array, shape (K, rows, sets)
        The ways of each row (a cell of the walk, or the ways a rule settles) in each
        set, one array per distinct rounds the actions play.
    reads : int array, shape (actions,)
        The array of ``sums`` each action plays.
    nets : int array, shape (K, rows)
        Each row's net per base stake (its rule's), in units of a common fraction of a
        stake.
    stakes : int array, shape (actions,)
    fold_nets : int array, shape (actions,)
        A fold's net a way (read where ``folds``).
    folds : bool array, shape (actions,)

    Returns
    -------
    tuple of int64 arrays
        Each set's ways (sets,), each action's net in each set (actions, sets), and
        the best action of each set (sets,): the first listed where two are equal.

    Raises
    ------
    ValueError
        Arrays whose shapes disagree.

    Examples
    --------
    >>> sums = np.array([[[3, 0], [1, 4]]])  # row 0 wins, row 1 loses; two sets
    >>> ways, value, best = best_actions(
    ...     sums, np.array([0, 0]), np.array([[1, -1]]), np.array([1, 2]),
    ...     np.zeros(2, dtype=np.int64), np.zeros(2, dtype=bool))
    >>> ways.tolist(), value.tolist(), best.tolist()
    ([4, 4], [[2, -4], [4, -8]], [1, 0])
    """
    sums = np.ascontiguousarray(sums, dtype=np.int64)
    reads, nets, stakes, fold_nets = (
        np.ascontiguousarray(x, dtype=np.int64) for x in (reads, nets, stakes, fold_nets)
    )
    folds = np.ascontiguousarray(folds, dtype=np.bool_)
    n_actions = len(stakes)
    if (
        sums.ndim != 3
        or nets.shape != sums.shape[:2]
        or not n_actions
        or not len(reads) == len(fold_nets) == len(folds) == n_actions
        or reads.min() < 0
        or reads.max() >= len(sums)
    ):
        raise ValueError("best_actions: the shapes of the sums, nets and actions disagree")
    ways = np.zeros(sums.shape[2], dtype=np.int64)
    value = np.zeros((n_actions, sums.shape[2]), dtype=np.int64)
    best = np.zeros(sums.shape[2], dtype=np.int64)
    _best_actions_jit(sums, reads, nets, stakes, fold_nets, folds, ways, value, best)
    return ways, value, best


def played_ways(
    sums: np.ndarray,
    reads: np.ndarray,
    folds: np.ndarray,
    ways: np.ndarray,
    played: np.ndarray,
    bounds: np.ndarray,
) -> np.ndarray:
    """The ways of each row under the action played in each set, per reveal (int64,
    reveals x actions x rows; a fold's sets' ways in its first column): the sets
    of reveal ``v`` are ``bounds[v]`` to ``bounds[v + 1]``, ``played`` the action of
    each, ``sums``, ``reads``, ``folds`` and ``ways`` as :func:`best_actions` takes and
    gives them.

    Raises
    ------
    ValueError
        Arrays whose shapes disagree, or an action played that does not exist.

    Examples
    --------
    >>> sums = np.array([[[3, 0], [1, 4]]])
    >>> played_ways(sums, np.array([0, 0]), np.zeros(2, dtype=bool), np.array([4, 4]),
    ...             np.array([1, 0]), np.array([0, 2])).tolist()
    [[[0, 4], [3, 1]]]
    """
    sums = np.ascontiguousarray(sums, dtype=np.int64)
    reads, ways, played, bounds = (
        np.ascontiguousarray(x, dtype=np.int64) for x in (reads, ways, played, bounds)
    )
    folds = np.ascontiguousarray(folds, dtype=np.bool_)
    n_sets = sums.shape[2] if sums.ndim == 3 else -1
    if (
        len(folds) != len(reads)
        or len(ways) != n_sets
        or len(played) != n_sets
        or len(bounds) < 1
        or bounds[0] != 0
        or bounds[-1] != n_sets
        or np.any(np.diff(bounds) < 0)
        or (n_sets and (played.min() < 0 or played.max() >= len(reads)))
    ):
        raise ValueError("played_ways: the shapes of the sums, sets and actions disagree")
    taken = np.zeros((len(bounds) - 1, len(reads), sums.shape[1]), dtype=np.int64)
    _played_ways_jit(sums, reads, folds, ways, played, bounds, taken)
    return taken


def _seen_positions(game: Game) -> np.ndarray:
    """The positions, in the first deal's dealing order, of the cards the decision sees
    (in the order it names them; none without a decision)."""
    sees = () if game.decision is None else game.decision.sees
    position = {place: i for i, place in enumerate(game.positions)}
    return np.array([position[game.card_place(card)] for card in sees], dtype=np.int64)


def information_codes(game: Game, values: np.ndarray) -> np.ndarray:
    """The information set of each dealt round: what the decision of ``game`` sees of the
    round's first deal, as the code its strategy table knows it by (the point values of
    the cards seen, one decimal digit a card, the first named the most significant: the
    code :func:`drawn_tables` tags each row with). The one place a dealt round's set is
    read (``play`` and ``simulate`` read it here).

    Parameters
    ----------
    game : Game
        A game with a decision.
    values : int array, shape (rounds, game.cards)
        Each round's first deal as point values (0-9), a column per card in the game's
        dealing order (:attr:`~analyzer.game.games.Game.positions`).

    Returns
    -------
    int64 array
        Each round's information set code.

    Examples
    --------
    >>> from analyzer.game.games import named_game
    >>> lucky = named_game("lucky-draw-baccarat")  # sees player 1, player 2, dealer 1
    >>> information_codes(lucky, np.array([[3, 0, 4, 9]]))  # P3 D0 P4 D9
    array([340])
    """
    values = np.asarray(values, dtype=np.int64).reshape(-1, game.cards)
    codes = np.zeros(len(values), dtype=np.int64)
    for position in _seen_positions(game):
        codes = codes * 10 + values[:, position]
    return codes
