"""The class walk: bets on the cards counted per settlement class, on the value walk.

The draw depends only on point values; what a bet on the cards asks beyond them refines
each card within its value (its colour, its rank among 10 J Q K, its suit). The card walk
deals every card at that detail (Super Tie: 20 types a card, 6.7e7 rounds). But bets
need only the ways of each *class*: the keys (one code per card, :mod:`.layout`) every bet
settles alike. So this walk deals point values only, as the enumerator does, and at each
value path adds up the ways of each class:

* Per outcome code, the keys of the cards' codes are sorted into a decision tree
  (:func:`class_trees`) whose leaves are *cylinders*: each card's code held to a set, each
  leaf one class. A cylinder's ways on a value path factor over the point values, and
  within one: cards held to one set ``S`` of fine types take ``n_S (n_S - 1) ...``, the free
  ones the rest of the value's cards whatever they are (Vandermonde's identity), so a
  cylinder costs one product, not a walk of its cards' types.
* One class per outcome, the one with the most leaves (Super Tie: "not all one colour"),
  is never walked: its ways are the path's own, less the other classes'.
* A branch that the path's values cannot show (a red card where the value has none, a
  third card held to be dealt where it is not) is skipped with its subtree.

Where the bets ask for fields worked out from several cards at once, or count suits by
pattern, or the key space is too large to sort (:data:`MAX_KEYS`), there is no class
walk (:func:`key_space` is None) and the card walk counts them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import factorial, prod

import numpy as np
from numba import njit

from analyzer.engine.card_walk.layout import Layout, key_columns, lay_out
from analyzer.engine.card_walk.planning import CardPlan
from analyzer.engine.draw import banker_draws, player_draws
from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_RANKS, N_VALUES, RANK_VALUES
from analyzer.game.fields import NO_THIRD, PATTERNS
from analyzer.game.rules import PLAYER_STOOD, Tableau
from analyzer.game.shoe import ROUND_CARDS, Shoe

#: The most keys a class walk sorts (each key's fields are worked out and every bet's
#: rules evaluated on it once per process): beyond it the card walk counts.
MAX_KEYS = 2**18
#: The bit of a code's mask that stands for a third card not dealt (fine types take the
#: low bits: at most 52).
NOT_DEALT_BIT = np.int64(1 << 62)
#: The fields worked out from several cards that the class walk works out from a path:
#: the highest card's value, and (where no card is asked more of) the cards' rank pattern,
#: ranks of one value apart only among 10 J Q K.
_WALKED = frozenset({"max_card_value", "cards_pattern"})
#: The rank patterns of 4 to 6 cards (PATTERNS), and the ranks of point value 0.
N_PATTERNS = len(PATTERNS)
_TENS = tuple(rank for rank in range(N_RANKS) if RANK_VALUES[rank] == 0)
#: A rank pattern's code: the sum, over the ranks dealt, of the step of each one's count
#: (a mixed-radix number of how many ranks are dealt once, twice, ... six times: at most
#: 6, 3, 2, 1, 1, 1), and the PATTERNS index of each code (-1: none).
PART_STEP = np.array([0, 1, 7, 28, 84, 168, 336], dtype=np.int64)
PART_STEP.setflags(write=False)


def _by_parts() -> np.ndarray:
    table = np.full(7 * 4 * 3 * 2 * 2 * 2, -1, dtype=np.int64)
    for index, pattern in enumerate(PATTERNS):
        table[sum(PART_STEP[int(part)] for part in pattern.split("+"))] = index
    table.setflags(write=False)
    return table


_BY_PARTS = _by_parts()
#: The shoe the key space is laid out on: every fine type present.
_REFERENCE = Shoe.standard(1)


@dataclass(frozen=True, eq=False)
class KeySpace:
    """Every key a plan's walk could count into, on any shoe, under one tableau.

    ``columns`` are the fields of every key, in flat order of ``shape`` (outcome code,
    then one code per card); ``code_masks[card, code]`` the fine types (bits) the code
    stands for at that card, with :data:`NOT_DEALT_BIT` for a third card not dealt."""

    plan: CardPlan
    tableau: Tableau
    layout: Layout
    shape: tuple[int, ...]
    columns: dict[str, np.ndarray]
    code_masks: np.ndarray

    @property
    def size(self) -> int:
        return prod(self.shape)

    @property
    def walk_radix(self) -> tuple[int, ...]:
        """How many values each field worked out from several cards takes (the key's last
        digits): the highest card's value (10) and the cards' rank pattern."""
        return self.shape[1 + ROUND_CARDS :]

    @property
    def highest_step(self) -> int:
        """What the highest card's value is multiplied by in a path's code (0: not asked):
        codes are the outcome's, then the highest value, then the rank pattern."""
        if "max_card_value" not in self.plan.walk:
            return 0
        return N_PATTERNS if "cards_pattern" in self.plan.walk else 1

    def by_outcome(self, classes: np.ndarray) -> np.ndarray:
        """``classes`` of every key, one axis per card after one for the path's code (the
        outcome code, then the key's last digits, worked out from the values and ranks
        as the outcome is)."""
        keyed = classes.reshape(self.shape)
        walk_axes = list(range(1 + ROUND_CARDS, len(self.shape)))
        keyed = np.moveaxis(keyed, walk_axes, list(range(1, 1 + len(walk_axes))))
        return keyed.reshape(-1, *self.shape[1 : 1 + ROUND_CARDS])


def key_space(card_plan: CardPlan, tableau: Tableau) -> KeySpace | None:
    """The key space of ``card_plan`` under ``tableau``, or None where the class walk
    does not count it (see the module's text)."""
    if set(card_plan.walk) - _WALKED or card_plan.suit_pattern:
        return None
    try:
        layout = lay_out(card_plan, _REFERENCE, tableau)
    except AnalyzerError:  # past the card walk's limits: it says so in its own words
        return None
    shape = layout.shape
    deal = layout.deal
    if prod(shape) > MAX_KEYS:
        return None
    if "cards_pattern" in card_plan.walk and (deal.radix > 1).any():
        return None  # (a rank pattern beside codes of single cards: not counted here)
    masks = np.zeros((ROUND_CARDS, int(deal.radix.max())), dtype=np.int64)
    for card in range(ROUND_CARDS):
        for t, value in enumerate(deal.type_values.tolist()):
            code = deal.fine_codes[card, t] if deal.fine[card] else deal.value_codes[card, value]
            masks[card, code] |= np.int64(1 << t)
        if card >= 4:  # (a card asked nothing of has one code: dealt or not)
            masks[card, deal.not_dealt[card]] |= NOT_DEALT_BIT
    columns = key_columns(layout, np.arange(prod(shape)))
    masks.setflags(write=False)
    return KeySpace(card_plan, tableau, layout, shape, columns, masks)


@dataclass(frozen=True, eq=False)
class ClassTrees:
    """The decision trees of a key space sorted into classes, flat for the kernel.

    Outcome code ``o``'s tree is nodes ``start[o]:start[o + 1]`` in depth-first order:
    node ``n`` holds card ``card[n]`` to the fine types ``mask[n]`` and its subtree ends
    before ``after[n]``; a leaf has its class ``leaf_class[n]`` (internal nodes -1) and
    every card's set ``leaf_masks[n]``. Keys of class ``rest[o]`` have no leaf: their
    ways are the path's less the leaves'."""

    start: np.ndarray
    card: np.ndarray
    mask: np.ndarray
    after: np.ndarray
    leaf_class: np.ndarray
    leaf_masks: np.ndarray
    rest: np.ndarray
    n_classes: int
    #: Per node, card and value: the set the leaf holds the card to where it is dealt
    #: that value (an index into ``set_masks``), or FREE, or NONE (it cannot be); and
    #: whether every two of a leaf's sets of one value are the same or apart (``simple``:
    #: its ways are then one product, card after card).
    held_set: np.ndarray
    simple: np.ndarray
    set_masks: np.ndarray
    #: Per node: is the leaf simple and every card it deals held to a set (none free)?
    #: Its ways are then one product of the cards' factors in any order: the first
    #: four's product is worked out once per tuple of first values, not per path.
    held_only: np.ndarray
    #: Do the classes stay the same when the Player's (the Banker's) first two cards
    #: change places? The walk then deals them in one order, each pair of values twice.
    swap_player: bool = False
    swap_banker: bool = False

    @property
    def n_leaves(self) -> int:
        return int((self.leaf_class >= 0).sum())


class TooManyLeaves(Exception):
    """The keys' classes make trees past :data:`MAX_LEAVES` leaves or :data:`MAX_SORTING`
    keys looked at: the card walk counts those bets (a walk of as many cylinders a path
    would cost more than it saves)."""


#: The most leaves the trees of one key space may have, and keys looked at to sort them.
MAX_LEAVES = 20_000
MAX_SORTING = 5 * 10**7


def class_trees(space: KeySpace, classes: np.ndarray, n_classes: int) -> ClassTrees:
    """The trees of ``space`` whose keys fall in ``classes`` (int64, one per key);
    :class:`TooManyLeaves` past the limits."""
    by_outcome = space.by_outcome(classes)
    start, rest, rows = [0], [], []
    budget = [MAX_LEAVES, MAX_SORTING]
    for outcome in range(by_outcome.shape[0]):
        tree = _split(
            by_outcome[outcome],
            [list(range(r)) for r in by_outcome.shape[1:]],
            space.code_masks,
            budget,
        )
        leaves: dict[int, int] = {}
        _count_leaves(tree, leaves)
        sink = max(leaves, key=lambda c: (leaves[c], -c))
        rest.append(sink)
        _flatten(tree, sink, rows)
        start.append(len(rows))
    n = len(rows)
    card = np.array([row[0] for row in rows], dtype=np.int64).reshape(n)
    mask = np.array([row[1] for row in rows], dtype=np.int64).reshape(n)
    after = np.array([row[2] for row in rows], dtype=np.int64).reshape(n)
    leaf_class = np.array([row[3] for row in rows], dtype=np.int64).reshape(n)
    leaf_masks = np.array([row[4] for row in rows], dtype=np.int64).reshape(n, ROUND_CARDS)
    held_set, simple, set_masks = _held_sets(space, leaf_class, leaf_masks)
    # (The first cards dealt alone leave the others free: never held only.)
    held_only = simple & (held_set != FREE).all(axis=(1, 2)) & (not space.plan.dealt_alone)
    arrays = (np.array(start, dtype=np.int64), card, mask, after, leaf_class, leaf_masks)
    held = (held_set, simple, set_masks, held_only)
    for array in (*arrays, *held):
        array.setflags(write=False)
    rest_array = np.array(rest, dtype=np.int64)
    swaps = [_swaps(space, by_outcome, first, second) for first, second in ((0, 2), (1, 3))]
    return ClassTrees(*arrays, rest_array, n_classes, *held, *swaps)


def _swaps(space: KeySpace, by_outcome: np.ndarray, first: int, second: int) -> bool:
    """Are the classes of every key those of the key with cards ``first`` and ``second``
    (a hand's first two) swapped? Swapping two physical cards of a deal is one to one, so
    the two orders of their values then give every class the same ways."""
    if space.plan.dealt_alone:  # (the first cards alone: each tuple dealt as it is)
        return False
    masks = space.code_masks
    if not np.array_equal(masks[first], masks[second]):
        return False
    return bool(np.array_equal(by_outcome, np.swapaxes(by_outcome, 1 + first, 1 + second)))


#: A card a leaf leaves free (any card of its value), or one it cannot show.
FREE = -2
NONE = -1
#: (In the walk: the set of a third card not dealt.)
NOT_HELD = -3


def _value_masks(space: KeySpace) -> np.ndarray:
    """The fine types (bits) of each point value."""
    masks = np.zeros(N_VALUES, dtype=np.int64)
    for t, value in enumerate(space.layout.types.values.tolist()):
        masks[value] |= np.int64(1 << t)
    return masks


def _held_sets(space: KeySpace, leaf_class: np.ndarray, leaf_masks: np.ndarray):
    """Each leaf's sets per card and value (see :class:`ClassTrees`)."""
    value_masks = _value_masks(space).tolist()
    n = len(leaf_class)
    held_set = np.full((n, ROUND_CARDS, N_VALUES), FREE, dtype=np.int64)
    simple = np.ones(n, dtype=np.bool_)
    sets: dict[int, int] = {}
    for node in np.flatnonzero(leaf_class >= 0).tolist():
        for v, whole in enumerate(value_masks):
            seen: list[int] = []
            for position in range(ROUND_CARDS):
                allowed = int(leaf_masks[node, position]) & whole
                if allowed == 0:
                    held_set[node, position, v] = NONE
                elif allowed != whole:
                    held_set[node, position, v] = sets.setdefault(allowed, len(sets))
                    seen.append(allowed)
            if any(x != y and x & y for x in seen for y in seen):
                simple[node] = False
    set_masks = np.array(list(sets), dtype=np.int64).reshape(len(sets))
    return held_set, simple, set_masks


# A tree: ("leaf", class, masks) or ("split", card, [(mask, subtree), ...]).
_Tree = tuple


def _split(
    classes: np.ndarray, codes: list[list[int]], code_masks: np.ndarray, budget: list[int]
) -> _Tree:
    """The tree of the keys whose cards show ``codes`` (per card, the codes still open).

    A card is split where its codes lead to different classes, codes leading to the same
    sub-classes going down one branch together; the card split is the one that leaves
    the fewest branches still mixed (then the fewest branches)."""
    sub = classes[np.ix_(*codes)]
    budget[1] -= sub.size * len(codes)
    if budget[1] < 0:
        raise TooManyLeaves
    first = sub.flat[0]
    if (sub == first).all():
        budget[0] -= 1
        if budget[0] < 0:
            raise TooManyLeaves
        masks = [
            int(np.bitwise_or.reduce(code_masks[c, open_codes]))
            for c, open_codes in enumerate(codes)
        ]
        return ("leaf", int(first), masks)
    best = None
    for card, open_codes in enumerate(codes):
        if len(open_codes) < 2:
            continue
        branches: dict[bytes, list[int]] = {}
        for index, code in enumerate(open_codes):
            branches.setdefault(np.take(sub, index, axis=card).tobytes(), []).append(code)
        if len(branches) < 2:
            continue
        mixed = 0
        for members in branches.values():
            one = np.take(sub, open_codes.index(members[0]), axis=card)
            mixed += not (one == one.flat[0]).all()
        score = (mixed, len(branches))
        if best is None or score < best[0]:
            best = (score, card, list(branches.values()))
    assert best is not None  # (keys of different classes differ in some card's code)
    _, card, groups = best
    children = []
    for members in groups:
        narrowed = [*codes[:card], members, *codes[card + 1 :]]
        mask = int(np.bitwise_or.reduce(code_masks[card, members]))
        children.append((mask, _split(classes, narrowed, code_masks, budget)))
    return ("split", card, children)


def _count_leaves(tree: _Tree, leaves: dict[int, int]) -> None:
    if tree[0] == "leaf":
        leaves[tree[1]] = leaves.get(tree[1], 0) + 1
    else:
        for _, child in tree[2]:
            _count_leaves(child, leaves)


def _flatten(tree: _Tree, sink: int, rows: list) -> bool:
    """Append the subtrees below ``tree`` that hold a leaf of a class other than
    ``sink``, each node as ``[card, mask, after, class, leaf masks]``; did any?"""
    if tree[0] == "leaf":
        return False
    _, card, children = tree
    kept = False
    for mask, child in children:
        if child[0] == "leaf":
            if child[1] != sink:
                rows.append([card, mask, len(rows) + 1, child[1], child[2]])
                kept = True
            continue
        at = len(rows)
        rows.append([card, mask, 0, -1, [0] * ROUND_CARDS])
        if not _flatten(child, sink, rows):
            del rows[at:]
            continue
        kept = True
        leaves = [row for row in rows[at + 1 :] if row[3] >= 0]
        if len(leaves) == 1:  # one leaf below: it alone, tested where the branch was
            rows[at:] = [[card, mask, at + 1, leaves[0][3], leaves[0][4]]]
        else:
            rows[at][2] = len(rows)
    return kept


def class_ways(space: KeySpace, trees: ClassTrees, shoe: Shoe) -> np.ndarray:
    """Ordered six-card sequences of ``shoe`` (as :meth:`~analyzer.game.shoe.Shoe.
    in_lowest_terms` gives it) in each class: int64[n_classes], summing to its
    :attr:`~analyzer.game.shoe.Shoe.rounds_denominator`."""
    card_plan = space.plan
    if card_plan.needs_suits and not shoe.suits_known:
        raise AnalyzerError(
            "the suits of some cards are unknown: suits and colours cannot be counted exactly"
        )
    types = space.layout.types
    by_suit = card_plan.needs_suits
    present = shoe.suit_counts.reshape(-1) if by_suit else shoe.rank_counts
    type_counts = np.zeros(len(types.counts), dtype=np.int64)
    np.add.at(type_counts, types.members, present.astype(np.int64))
    deal = space.layout.deal
    value_masks = _value_masks(space)
    bits = (trees.set_masks[:, None] >> np.arange(len(type_counts))) & 1
    set_cards = (bits * type_counts).sum(axis=1).astype(np.int64)
    out = np.zeros(trees.n_classes, dtype=np.int64)
    common = (
        type_counts,
        value_masks,
        deal.types_of_value,
        deal.n_types_of_value,
        trees.start,
        trees.card,
        trees.mask,
        trees.after,
        trees.leaf_class,
        trees.leaf_masks,
        trees.rest,
        trees.held_set,
        trees.simple,
        trees.held_only,
        set_cards,
        trees.swap_player,
        trees.swap_banker,
        out,
    )
    by_pattern = "cards_pattern" in card_plan.walk
    tens = _tens_patterns(tuple(shoe.rank_counts[list(_TENS)].tolist()), shoe.take)
    _class_walk_jit(
        shoe.value_counts.astype(np.int64),
        shoe.take,
        shoe.size,
        space.tableau.third_card,
        deal.outcome_code * prod(space.walk_radix),
        space.highest_step,
        by_pattern,
        *tens,
        PART_STEP,
        _BY_PARTS,
        deal.order,
        *common,
    )
    total = int(out.sum(dtype=np.int64))
    if total != shoe.rounds_denominator or (out < 0).any():  # never a wrong number out
        raise AssertionError(
            f"class walk counts sum to {total}, expected {shoe.rounds_denominator}"
        )
    return out


@lru_cache(maxsize=64)
def _tens_patterns(counts: tuple[int, ...], take: int) -> tuple[np.ndarray, ...]:
    """Per number of cards of point value 0 (0 to 6), every way they can share ranks
    among 10 J Q K (its parts' code, :data:`PART_STEP`) and its ordered ways: the sum,
    over the counts of each rank, of the multinomial times each rank's falling product."""
    by_cards: list[dict[tuple[int, ...], int]] = [{} for _ in range(ROUND_CARDS + 1)]

    def falling(n: int, m: int) -> int:
        return prod(max(n - take * j, 0) for j in range(m))

    def spread(left: int, ranks: int):
        if ranks == 1:
            yield (left,)
            return
        for m in range(left + 1):
            for rest in spread(left - m, ranks - 1):
                yield (m, *rest)

    for z in range(ROUND_CARDS + 1):
        for split in spread(z, len(counts)):
            ways = factorial(z)
            for n, m in zip(counts, split, strict=True):
                ways = ways // factorial(m) * falling(n, m)
            parts = tuple(sorted((m for m in split if m), reverse=True))
            by_cards[z][parts] = by_cards[z].get(parts, 0) + ways
    most = max(len(kinds) for kinds in by_cards)
    parts = np.zeros((ROUND_CARDS + 1, most), dtype=np.int64)
    weights = np.zeros((ROUND_CARDS + 1, most), dtype=np.int64)
    kinds = np.zeros(ROUND_CARDS + 1, dtype=np.int64)
    for z, found in enumerate(by_cards):
        kinds[z] = len(found)
        for k, (shape, ways) in enumerate(found.items()):
            parts[z, k] = sum(PART_STEP[m] for m in shape)
            weights[z, k] = ways
    for array in (parts, weights, kinds):
        array.setflags(write=False)
    return parts, weights, kinds


@njit(cache=True, inline="always")
def _falling(n, m, take):
    """n (n - take) ... (m factors), 0 where the cards run out."""
    result = 1
    for j in range(m):
        x = n - take * j
        if x <= 0:
            return 0
        result *= x
    return result


@njit(cache=True)
def _cards(types, v, type_counts, types_of_value, n_types_of_value):
    """The cards of value ``v`` of the fine types ``types`` (bits)."""
    cards = 0
    for k in range(n_types_of_value[v]):
        t = types_of_value[v, k]
        if (types >> t) & 1:
            cards += type_counts[t]
    return cards


@njit(cache=True)
def _apart(v, n_held, held_mask, held_value):
    """Are every two held sets of value ``v`` the same or apart?"""
    for i in range(n_held):
        for i2 in range(i):
            same_value = held_value[i] == v and held_value[i2] == v
            if same_value and held_mask[i] != held_mask[i2] and held_mask[i] & held_mask[i2]:
                return False
    return True


@njit(cache=True)
def _apart_ways(
    v, n_held, held_mask, held_value, type_counts, types_of_value, n_types_of_value, take
):
    """The ordered ways to deal the held cards of value ``v``, their sets the same or
    apart: per set, its cards one after another."""
    ways = 1
    for i in range(n_held):
        if held_value[i] != v:
            continue
        repeat = False
        for i2 in range(i):
            if held_value[i2] == v and held_mask[i2] == held_mask[i]:
                repeat = True
        if repeat:
            continue
        alike = 0
        for i2 in range(i, n_held):
            if held_value[i2] == v and held_mask[i2] == held_mask[i]:
                alike += 1
        cards = _cards(held_mask[i], v, type_counts, types_of_value, n_types_of_value)
        ways *= _falling(cards, alike, take)
    return ways


@njit(cache=True)
def _overlapping(
    v,
    n_held,
    held_mask,
    held_value,
    type_counts,
    types_of_value,
    n_types_of_value,
    take,
    used,
    choice,
):
    """Sum over every type of each held card of value ``v`` of the ordered ways to deal
    them, where some two held sets overlap (``used``, ``choice``: scratch, left at 0)."""
    n = n_types_of_value[v]
    total = 0
    while True:
        ways = 1
        m = 0
        for i in range(n_held):
            if held_value[i] != v:
                continue
            t = types_of_value[v, choice[m]]
            m += 1
            if ways == 0 or not (held_mask[i] >> t) & 1:
                ways = 0
                continue
            left = type_counts[t] - take * used[t]
            if left <= 0:
                ways = 0
                continue
            ways *= left
            used[t] += 1
        for i in range(m):
            used[types_of_value[v, choice[i]]] = 0
        total += ways
        i = m - 1
        while i >= 0 and choice[i] == n - 1:
            choice[i] = 0
            i -= 1
        if i < 0:
            return total
        choice[i] += 1


@njit(cache=True)
def _held_ways(
    values,
    leaf_masks,
    n,
    value_counts,
    take,
    type_counts,
    value_masks,
    types_of_value,
    n_types_of_value,
):
    """The ways of leaf ``n``'s cylinder on the path ``values`` where some value's held
    sets are neither the same nor apart (rare: the walk's fast path takes the rest), less
    the rest of the six cards: per value, its held cards' types, then its free cards."""
    held_mask = np.zeros(ROUND_CARDS, dtype=np.int64)
    held_value = np.zeros(ROUND_CARDS, dtype=np.int64)
    used = np.zeros(type_counts.shape[0], dtype=np.int64)
    choice = np.zeros(ROUND_CARDS, dtype=np.int64)
    place = np.zeros(ROUND_CARDS, dtype=np.int64)
    present = np.zeros(ROUND_CARDS, dtype=np.int64)
    dealt = np.zeros(ROUND_CARDS, dtype=np.int64)
    free_ways = np.zeros(ROUND_CARDS, dtype=np.int64)
    held = np.zeros(ROUND_CARDS, dtype=np.int64)
    alike = np.zeros(ROUND_CARDS, dtype=np.bool_)
    first_held = np.zeros(ROUND_CARDS, dtype=np.int64)
    # The path's values: each dealt card's place among them, and each one's
    # cards dealt and ways dealt free.
    n_present = 0
    for position in range(ROUND_CARDS):
        v = values[position]
        place[position] = -1
        if v < 0:
            continue
        for i in range(n_present):
            if present[i] == v:
                place[position] = i
                dealt[i] += 1
        if place[position] < 0:
            present[n_present] = v
            dealt[n_present] = 1
            place[position] = n_present
            n_present += 1
    for i in range(n_present):
        free_ways[i] = _falling(value_counts[present[i]], dealt[i], take)
    # The cylinder's ways: per value, its cards held to a set short of
    # the value's cards, then the rest free.
    cylinder = 1
    n_held = 0
    for i in range(n_present):
        held[i] = 0
        alike[i] = True
    for position in range(ROUND_CARDS):
        v = values[position]
        if v < 0:
            continue
        allowed = leaf_masks[n, position] & value_masks[v]
        if allowed == 0:
            cylinder = 0
            break
        if allowed == value_masks[v]:
            continue
        i = place[position]
        if held[i] == 0:
            first_held[i] = allowed
        elif first_held[i] != allowed:
            alike[i] = False
        held[i] += 1
        held_mask[n_held] = allowed
        held_value[n_held] = v
        n_held += 1
    for i in range(n_present):
        if cylinder == 0:
            break
        v = present[i]
        if held[i] == 0:
            cylinder *= free_ways[i]
            continue
        if alike[i]:
            cylinder *= _falling(
                _cards(
                    first_held[i],
                    v,
                    type_counts,
                    types_of_value,
                    n_types_of_value,
                ),
                held[i],
                take,
            )
        elif _apart(v, n_held, held_mask, held_value):
            cylinder *= _apart_ways(
                v,
                n_held,
                held_mask,
                held_value,
                type_counts,
                types_of_value,
                n_types_of_value,
                take,
            )
        else:
            cylinder *= _overlapping(
                v,
                n_held,
                held_mask,
                held_value,
                type_counts,
                types_of_value,
                n_types_of_value,
                take,
                used,
                choice,
            )
        cylinder *= _falling(value_counts[v] - take * held[i], dealt[i] - held[i], take)
    return cylinder


@njit(cache=True)
def _class_walk_jit(
    value_counts,
    take,
    total,
    third_card,
    outcome_code,
    highest,
    by_pattern,
    tens_parts,
    tens_ways,
    tens_kinds,
    part_step,
    by_parts,
    order,
    type_counts,
    value_masks,
    types_of_value,
    n_types_of_value,
    start,
    card,
    mask,
    after,
    leaf_class,
    leaf_masks,
    rest,
    held_set,
    simple,
    held_only,
    set_cards,
    swap_player,
    swap_banker,
    out,
):
    """Every value path of the shoe, its ways added to its classes: whole rounds under
    the tableau ``third_card``, or, with ``order``, those of the first four cards alone
    (the rest of the six any cards; one outcome, code 0). A path's code is its outcome's
    (``outcome_code``, stepped for the digits after it), plus the highest card's value
    times ``highest`` (0: not asked), plus, ``by_pattern``, the rank pattern of its cards:
    the path is then split by how its cards of value 0 share ranks (``tens_*``, from
    :func:`_tens_patterns`), the other values' cards each one rank.

    Where the classes stay the same when a hand's first two cards change places
    (``swap_player``, ``swap_banker``), its two values are dealt in one order and weigh
    twice. A path whose outcome has one class adds its ways to it at once. The others are listed
    per tuple of first cards and then added, in one place, to each leaf of the outcome's
    tree they can show, and the rest to its class with no leaf. A leaf's cylinder is one
    product where its sets are simple (held cards from their sets, card after card, then
    the free ones from what is left of their values), else :func:`_held_ways`. (The
    walk is one function with one place that adds: a second place, or a call per
    tuple, made every path several times slower.)"""
    left = value_counts.copy()
    values = np.full(ROUND_CARDS, -1, dtype=np.int64)
    set_used = np.zeros(set_cards.shape[0], dtype=np.int64)
    value_used = np.zeros(N_VALUES, dtype=np.int64)
    dealt_of = np.zeros(N_VALUES, dtype=np.int64)
    most = 1 + N_VALUES * (1 + N_VALUES)
    path_player = np.full(most, -1, dtype=np.int64)
    path_banker = np.full(most, -1, dtype=np.int64)
    path_ways = np.zeros(most, dtype=np.int64)
    path_rest = np.zeros(most, dtype=np.int64)
    path_code = np.zeros(most, dtype=np.int64)
    alone = order.shape[0]
    first = alone if alone > 0 else 4
    positions = order.copy() if alone > 0 else np.arange(4)
    after_first = _falling(total - take * first, ROUND_CARDS - first, take)
    after5 = total - 5 * take
    bound = np.ones(4, dtype=np.int64)
    bound[:first] = N_VALUES
    digits = np.zeros(4, dtype=np.int64)
    # A held-only leaf's first four factors and sets, worked out at the tuple ``stamp``.
    n_nodes = leaf_class.shape[0]
    stamp = np.full(n_nodes, -1, dtype=np.int64)
    four_ways = np.empty(n_nodes, dtype=np.int64)
    four_sets = np.empty((n_nodes, 4), dtype=np.int64)
    tuple_id = -1
    for a in range(bound[0]):
        for b in range(bound[1]):
            for c in range(a if swap_player else 0, bound[2]):
                for d in range(b if swap_banker else 0, bound[3]):
                    digits[0], digits[1], digits[2], digits[3] = a, b, c, d
                    for v in range(N_VALUES):
                        left[v] = value_counts[v]
                    # (Both orders of a hand's first two values at once, where alike.)
                    mult = (2 if swap_player and a != c else 1) * (
                        2 if swap_banker and b != d else 1
                    )
                    ways = 1
                    for i in range(first):
                        v = digits[i]
                        values[positions[i]] = v
                        ways *= max(left[v], 0)
                        left[v] -= take
                    if ways == 0:
                        continue
                    tuple_id += 1
                    top = max(max(a, b), max(c, d)) * highest
                    n_paths = 0
                    if alone > 0:
                        path_ways[0], path_rest[0], path_code[0] = ways, after_first, 0
                        n_paths = 1
                    else:
                        player2 = (a + c) % 10
                        banker2 = (b + d) % 10
                        if player_draws(third_card, player2, banker2):
                            for e in range(N_VALUES):
                                ways5 = ways * max(left[e], 0)
                                if ways5 == 0:
                                    continue
                                left[e] -= take
                                player = (player2 + e) % 10
                                if banker_draws(third_card, player2, banker2, e):
                                    for f in range(N_VALUES):
                                        ways6 = ways5 * max(left[f], 0)
                                        if ways6 == 0:
                                            continue
                                        code = outcome_code[player, (banker2 + f) % 10, e, f] + max(
                                            top, e * highest, f * highest
                                        )
                                        if start[code] == start[code + 1] and not by_pattern:
                                            out[rest[code]] += ways6 * mult
                                            continue
                                        path_player[n_paths], path_banker[n_paths] = e, f
                                        path_ways[n_paths], path_rest[n_paths] = ways6, mult
                                        path_code[n_paths] = code
                                        n_paths += 1
                                else:
                                    code = outcome_code[player, banker2, e, NO_THIRD] + max(
                                        top, e * highest
                                    )
                                    if start[code] == start[code + 1] and not by_pattern:
                                        out[rest[code]] += ways5 * after5 * mult
                                    else:
                                        path_player[n_paths], path_banker[n_paths] = e, -1
                                        path_ways[n_paths], path_rest[n_paths] = (
                                            ways5,
                                            after5 * mult,
                                        )
                                        path_code[n_paths] = code
                                        n_paths += 1
                                left[e] += take
                        elif banker_draws(third_card, player2, banker2, PLAYER_STOOD):
                            for f in range(N_VALUES):
                                ways5 = ways * max(left[f], 0)
                                if ways5 == 0:
                                    continue
                                code = outcome_code[player2, (banker2 + f) % 10, NO_THIRD, f] + max(
                                    top, f * highest
                                )
                                if start[code] == start[code + 1] and not by_pattern:
                                    out[rest[code]] += ways5 * after5 * mult
                                    continue
                                path_player[n_paths], path_banker[n_paths] = -1, f
                                path_ways[n_paths], path_rest[n_paths] = ways5, after5 * mult
                                path_code[n_paths] = code
                                n_paths += 1
                        else:
                            code = outcome_code[player2, banker2, NO_THIRD, NO_THIRD] + top
                            if start[code] == start[code + 1] and not by_pattern:
                                out[rest[code]] += ways * after_first * mult
                            else:
                                path_player[0], path_banker[0] = -1, -1
                                path_ways[0], path_rest[0] = ways, after_first * mult
                                path_code[0] = code
                                n_paths = 1
                    for j in range(n_paths):
                        if alone == 0:
                            values[4], values[5] = path_player[j], path_banker[j]
                        code = path_code[j]
                        if by_pattern:  # no card asked more: no tree, one class a code
                            for v in range(N_VALUES):
                                dealt_of[v] = 0
                            for position in range(ROUND_CARDS):
                                if values[position] >= 0:
                                    dealt_of[values[position]] += 1
                            tens = dealt_of[0]
                            # The path's ways less its tens' (an exact division: their
                            # falling product is a factor of the path's).
                            others = path_ways[j] // _falling(value_counts[0], tens, take)
                            others *= path_rest[j]
                            # The pattern's code: a step per rank's count (PART_STEP).
                            shared = 0
                            for v in range(1, N_VALUES):
                                shared += part_step[dealt_of[v]]
                            for k in range(tens_kinds[tens]):
                                pattern = by_parts[shared + tens_parts[tens, k]]
                                out[rest[code + pattern]] += others * tens_ways[tens, k]
                            continue
                        counted = 0
                        n = start[code]
                        while n < start[code + 1]:
                            v = values[card[n]]
                            if v < 0:
                                shown = (mask[n] & NOT_DEALT_BIT) != 0
                            else:
                                shown = (mask[n] & value_masks[v]) != 0
                            if not shown:
                                n = after[n]
                                continue
                            if leaf_class[n] < 0:
                                n += 1
                                continue
                            cylinder = path_rest[j]
                            # A third card the leaf holds to be dealt, where it is not.
                            for position in range(4, ROUND_CARDS):
                                if values[position] < 0 and not (
                                    leaf_masks[n, position] & NOT_DEALT_BIT
                                ):
                                    cylinder = 0
                            if cylinder == 0:
                                pass
                            elif held_only[n]:
                                if stamp[n] != tuple_id:
                                    stamp[n] = tuple_id
                                    four = 1
                                    for position in range(4):  # (all four dealt)
                                        held_in = held_set[n, position, values[position]]
                                        four_sets[n, position] = held_in
                                        if held_in == NONE:
                                            four = 0
                                            continue
                                        before = 0
                                        for i in range(position):
                                            if four_sets[n, i] == held_in:
                                                before += 1
                                        four *= max(set_cards[held_in] - take * before, 0)
                                    four_ways[n] = four
                                cylinder *= four_ways[n]
                                held4 = NOT_HELD
                                for position in range(4, ROUND_CARDS):
                                    v = values[position]
                                    if v < 0 or cylinder == 0:
                                        continue
                                    held_in = held_set[n, position, v]
                                    if held_in == NONE:
                                        cylinder = 0
                                        continue
                                    before = 1 if held4 == held_in else 0
                                    for i in range(4):
                                        if four_sets[n, i] == held_in:
                                            before += 1
                                    cylinder *= max(set_cards[held_in] - take * before, 0)
                                    held4 = held_in
                            elif not simple[n]:
                                cylinder *= _held_ways(
                                    values,
                                    leaf_masks,
                                    n,
                                    value_counts,
                                    take,
                                    type_counts,
                                    value_masks,
                                    types_of_value,
                                    n_types_of_value,
                                )
                            else:
                                for position in range(ROUND_CARDS):
                                    v = values[position]
                                    if v < 0:
                                        continue
                                    held_in = held_set[n, position, v]
                                    if held_in == NONE:
                                        cylinder = 0
                                    elif held_in >= 0:
                                        cylinder *= max(
                                            set_cards[held_in] - take * set_used[held_in], 0
                                        )
                                        set_used[held_in] += 1
                                        value_used[v] += 1
                                for position in range(ROUND_CARDS):
                                    v = values[position]
                                    if v >= 0 and held_set[n, position, v] == FREE:
                                        cylinder *= max(value_counts[v] - take * value_used[v], 0)
                                        value_used[v] += 1
                                for position in range(ROUND_CARDS):
                                    v = values[position]
                                    if v >= 0:
                                        value_used[v] = 0
                                        if held_set[n, position, v] >= 0:
                                            set_used[held_set[n, position, v]] = 0
                            out[leaf_class[n]] += cylinder
                            counted += cylinder
                            n += 1
                        out[rest[code]] += path_ways[j] * path_rest[j] - counted
