"""The card walk's layout: how a plan deals and keys the rounds of one shoe.

The counts land in a dense array indexed by what the fields need: the round's outcome as
far as the fields ask (one code per distinct tuple of outcome fields), each card's
attributes (its fine type's or point value's code), the walk fields
(:data:`~analyzer.engine.card_walk.kernels.WALK_DIGITS`), and the suit pattern where
suits are counted by pattern. :func:`lay_out` builds the kernels' arrays for that once
(:class:`~analyzer.engine.card_walk.kernels.Deal`), checks the walk's limits, and cuts
it into shares; :func:`key_columns` reads the keys back as fields.

Every round is weighted as an ordered six-card sequence over the common denominator
N(N-1)...(N-5). A round's weight is the number of ordered ways to deal physical cards that
match it, which does not depend on the order of dealing: deal the fine-typed cards first
(``n_t - k`` for the k-th card of type ``t``), then the value-dealt ones from what is left
of their value (``N_v - K_v - j`` for the j-th of value ``v``, ``K_v`` the fine-typed
cards of that value), then the rest of the six from what remains. A shoe dealt with replacement
(:attr:`~analyzer.game.shoe.Shoe.replacement`, the infinite deck) takes nothing from the
counts as it deals (:attr:`~analyzer.engine.card_walk.kernels.Deal.take` 0): a round's
weight is the product of the counts of the cards it deals, times N^(6 - u) for the rest of
the six, over N^6.

Suits counted by pattern (:attr:`~analyzer.engine.card_walk.planning.CardPlan.suit_pattern`)
are dealt without their suits, and each round is counted once per suit pattern (the
cards' blocks, at most four, numbered in order of first appearance): its ways are the sum,
over every way to give the blocks distinct suits, of the ways to deal each block's cards
in its suit, which on a shoe whose suits are alike is 4 (4 - 1) ... times one suit's. Six
cards have 187 patterns, where the walk would otherwise deal 4^6 tuples of suits.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import prod

import numpy as np

from analyzer.engine.card_walk.kernels import (
    NO_BLOCK,
    WALK_DIGITS,
    Deal,
    SuitPatterns,
    WalkFields,
    first_four_codes,
)
from analyzer.engine.card_walk.planning import MAX_VISITS, CardPlan
from analyzer.engine.rows import unique_rows
from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_RANKS, N_SUITS, N_VALUES, RANK_VALUES, RANKS, SUITS
from analyzer.game.fields import (
    CARDS,
    COLOURS,
    FIELD,
    NO_THIRD_CARD,
    NOT_DEALT,
    PATTERNS,
    derived_columns,
    third_card_field,
)
from analyzer.game.rules import STANDARD_TABLEAU, Tableau
from analyzer.game.shoe import ROUND_CARDS, Shoe
from analyzer.memo import Kept

#: The most cells the walk may count into (8 bytes each): beyond it a paytable asks for
#: too many things at once to count them exactly in one table.
MAX_CELLS = 2**24
#: Rounds one call of a walk kernel visits, about, at most (the walk visits some 5e7 a
#: second): the walk is dealt in shares, one call each, and between two calls it is back
#: in Python, which answers Ctrl-C.
SHARE_VISITS = 2 * 10**7
#: How many values each walk field takes (its key digit's radix).
_WALK_RADIX = {
    "max_card_value": N_VALUES,
    "first_four_pattern": len(PATTERNS),
    "first_four_flush": 2,
    "first_four_straight": 2,
    "cards_pattern": len(PATTERNS),
}
#: A text attribute's value in a class that none of the bets' constants name.
_OTHER = "*"
#: The share of a walk not cut into shares: no card's class fixed.
_WHOLE = np.zeros(0, dtype=np.int64)


def _pattern_index() -> np.ndarray:
    """PATTERNS index of each rank pattern, by its code: counts largest first, as the
    digits of a base-7 number (6 digits)."""
    table = np.full(7**6, -1, dtype=np.int64)
    for index, pattern in enumerate(PATTERNS):
        counts = [int(c) for c in pattern.split("+")] + [0] * 6
        table[sum(c * 7 ** (5 - i) for i, c in enumerate(counts[:6]))] = index
    return table


_PATTERN_INDEX = _pattern_index()


@lru_cache(maxsize=1)
def _four_codes() -> np.ndarray:
    """The first four's rank pattern and straight of every four ranks (worked out once,
    where a plan first asks for them)."""
    codes = np.zeros(N_RANKS**4, dtype=np.int64)
    first_four_codes(_PATTERN_INDEX, codes)
    return codes


_NO_CODES = np.zeros(0, dtype=np.int64)


def _block_rows(cards: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every suit pattern of ``cards`` as a row of block digits: each card dealt joins a
    block already open or opens the next (at most four), a third card may be missing
    (:data:`~analyzer.engine.card_walk.kernels.NO_BLOCK`)."""
    rows: list[tuple[int, ...]] = [()]
    for card in cards:
        grown = []
        for row in rows:
            opened = max((d + 1 for d in row if d != NO_BLOCK), default=0)
            grown += [(*row, d) for d in range(min(opened + 1, N_SUITS))]
            if card >= 4:  # a third card
                grown.append((*row, NO_BLOCK))
        rows = grown
    return rows


def n_partitions(cards: int) -> int:
    """Ways ``cards`` cards, all dealt, share at most four suits (1, 1, 2, 5, 15, 51, 187)."""
    return len(_block_rows((0,) * cards))


def _suit_pattern_codes(cards: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Every suit pattern of ``cards``: the index of each by its code (one base-5 digit
    per card, its block or NO_BLOCK; -1: no pattern), and pattern ``i``'s cards with the
    suits named in order of first appearance, S H D C."""
    index = np.full(max(1, (N_SUITS + 1) ** len(cards)), -1, dtype=np.int64)
    rows = _block_rows(cards)
    for i, row in enumerate(rows):
        code = 0
        for digit in row:
            code = code * (N_SUITS + 1) + digit
        index[code] = i
    names = np.array([*SUITS, NOT_DEALT])
    return index, names[np.array(rows, dtype=np.int64).reshape(len(rows), len(cards))]


def _attribute(attribute: str, rank: int, suit: int, values: frozenset[str] | None) -> object:
    """The class of a physical card (rank, suit) for one attribute of one card."""
    if attribute == "value":
        return int(RANK_VALUES[rank])
    if attribute == "colour":
        return COLOURS[suit]
    name = RANKS[rank] if attribute == "rank" else SUITS[suit]
    return name if values is None or name in values else _OTHER


@dataclass(frozen=True)
class FineTypes:
    """The fine types of a plan on a shoe: the classes of physical cards that every card
    dealt as a fine type must tell apart, with their counts and point values, and the
    (rank, suit) of a card standing for each (suit -1 when suits play no part)."""

    counts: np.ndarray
    values: np.ndarray
    examples: list[tuple[int, int]]
    ranks: np.ndarray
    suits: np.ndarray
    #: The type of each rank (13) or, when suits play a part, each card (52, rank major);
    #: -1 for those the shoe has none of.
    members: np.ndarray
    #: With suit patterns or a flush by suit sums (:attr:`CardPlan.suit_pattern`,
    #: :attr:`CardPlan.flush_sum`; the types then without suits): the cards of each type
    #: in each suit, (T, 4); or (T, 1), a quarter of each type's cards, when every type is
    #: alike in every suit (a full shoe). Else (T, 0).
    suit_counts: np.ndarray


def _shown(card_plan: CardPlan, card: int) -> list[str]:
    """The attributes a card dealt as a fine type shows through its type: all it needs,
    less its suit where suit patterns stand for the suits."""
    need = card_plan.needs[card]
    return sorted(a for a in need if not (a == "suit" and card_plan.suit_pattern))


#: Frames already made (:func:`_cached`): the type kinds of a plan, the fine types of a
#: plan where the same types are present, and a layout's frame. 128 at most.
_made: Kept[object] = Kept(128)


def _cached(key: tuple, make):
    """``make()``, made once per ``key`` (the least recently used forgotten past 128):
    what a layout is made of but the shoe's counts, the same for every shoe holding the
    same types (an analysis, each card removed for its effects, a second analysis)."""
    made = _made.get(key)
    return made if made is not None else _made.put(key, make())


def _type_kinds(card_plan: CardPlan) -> tuple[bool, list, np.ndarray, int]:
    """The kinds of card a plan's types are made of (ranks, or cards where the types
    tell suits apart), the type each kind falls in, and how many types in all."""
    by_suit = card_plan.needs_suits and not (card_plan.suit_pattern or card_plan.flush_sum)
    kinds = [(r, s) for r in range(N_RANKS) for s in (range(N_SUITS) if by_suit else (-1,))]
    keys = []
    for rank, suit in kinds:
        key = [int(RANK_VALUES[rank])]
        for card, fine in enumerate(card_plan.fine):
            if fine:
                need = card_plan.needs[card]
                key += [_attribute(a, rank, suit, need[a]) for a in _shown(card_plan, card)]
                walk = card_plan.walk_needs[card] - ({"suit"} if card_plan.flush_sum else set())
                key += [_attribute(a, rank, suit, None) for a in sorted(walk)]
        keys.append(tuple(key))
    distinct = list(dict.fromkeys(keys))
    index = np.array([distinct.index(key) for key in keys], dtype=np.int64)
    return by_suit, kinds, index, len(distinct)


def fine_types(card_plan: CardPlan, shoe: Shoe) -> FineTypes:
    """The fine types of ``card_plan`` on ``shoe`` (those the shoe has none of left out)."""
    by_suit, kinds, index, n_distinct = _cached(
        ("kinds", card_plan.key), lambda: _type_kinds(card_plan)
    )
    held = (shoe.suit_counts.reshape(-1) if by_suit else shoe.rank_counts).astype(np.int64)
    all_counts = np.zeros(n_distinct, dtype=np.int64)
    np.add.at(all_counts, index, held)
    # Types the shoe has none of are never dealt: the walk leaves them out.
    (present,) = np.nonzero(all_counts > 0)
    counts = all_counts[present]

    def types_present():
        examples = [kinds[int(np.flatnonzero(index == t)[0])] for t in present]
        values = np.array([RANK_VALUES[rank] for rank, _ in examples], dtype=np.int64)
        # The walk reads a type's rank and suit only where a walk field needs them, and
        # then the type tells them apart.
        ranks = np.array([rank for rank, _ in examples], dtype=np.int64)
        suits = np.array([suit for _, suit in examples], dtype=np.int64)
        place = np.full(n_distinct, -1, dtype=np.int64)
        place[present] = np.arange(len(present))
        return values, examples, ranks, suits, place[index]

    values, examples, ranks, suits, members = _cached(
        ("types", card_plan.key, present.tobytes()), types_present
    )
    suit_counts = np.zeros((len(present), 0), dtype=np.int64)
    if card_plan.suit_pattern or card_plan.flush_sum:
        suit_counts = np.zeros((len(present), N_SUITS), dtype=np.int64)
        for rank in range(N_RANKS):
            if members[rank] >= 0:
                suit_counts[members[rank]] += shoe.suit_counts[rank]
        if (suit_counts == suit_counts[:, :1]).all():
            suit_counts = suit_counts[:, :1].copy()
    return FineTypes(counts, values, examples, ranks, suits, members, suit_counts)


def _codes(card_plan: CardPlan, card: int, types: FineTypes):
    """The key codes of the classes a card is dealt as, and what each code shows.

    Returns (code of each class, the attribute values of each code as a list of dicts,
    number of codes). A third card gets one more code: not dealt.
    """
    need = card_plan.needs[card]
    if card_plan.fine[card]:
        shown = [
            {a: _attribute(a, rank, max(suit, 0), need[a]) for a in _shown(card_plan, card)}
            for rank, suit in types.examples
        ]
    else:  # dealt by value: all it can show is the value
        shown = [{"value": v} if "value" in need else {} for v in range(N_VALUES)]
    distinct = list(dict.fromkeys(tuple(sorted(row.items())) for row in shown))
    codes = np.array([distinct.index(tuple(sorted(row.items()))) for row in shown], np.int64)
    return codes, [dict(row) for row in distinct], len(distinct)


def _outcome_codes(
    outcome: tuple[str, ...], naturals: tuple[int, ...]
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """One code per distinct tuple of the asked outcome fields, for every outcome cell
    (worked out once per fields and naturals: a copy each call, for a layout to own)."""
    code, columns = _outcome_codes_once(outcome, naturals)
    return code.copy(), {name: column.copy() for name, column in columns.items()}


@lru_cache(maxsize=64)
def _outcome_codes_once(
    outcome: tuple[str, ...], naturals: tuple[int, ...]
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    ps, bs, pt, bt = np.meshgrid(
        np.arange(10), np.arange(10), np.arange(11), np.arange(11), indexing="ij"
    )
    columns = derived_columns(
        ps.ravel(),
        bs.ravel(),
        third_card_field(pt.ravel()),
        third_card_field(bt.ravel()),
        naturals,
    )
    if not outcome:
        return np.zeros((10, 10, 11, 11), dtype=np.int64), {}
    keys = np.stack(
        [np.unique(columns[f], return_inverse=True)[1].reshape(-1) for f in outcome], axis=1
    )
    _, first, code = unique_rows(keys)
    return code.reshape(10, 10, 11, 11).astype(np.int64), {f: columns[f][first] for f in outcome}


@dataclass(frozen=True, eq=False)
class Layout:
    """How the walk deals and keys the rounds of a plan on a shoe."""

    plan: CardPlan
    types: FineTypes
    #: What the kernels read (one structure for every kernel and share).
    deal: Deal
    #: The dense array of counts, by key digit.
    shape: tuple[int, ...]
    outcome_columns: dict[str, np.ndarray]
    #: What each card's codes show (attribute values, by code).
    shown: list[list[dict]]
    #: The walk fields asked, in the order of their key digits.
    walk_digits: tuple[str, ...]
    #: Whole rounds whose third cards are dealt by value: the split walk counts them.
    split: bool
    #: The shares of the walk, one kernel call each: the classes of its first cards dealt
    #: (the split walk: their point values).
    shares: list[np.ndarray]
    #: The shares of the walk card by card (what :func:`~analyzer.engine.card_walk.
    #: kernels.record_terms` deals, where the split walk counts).
    card_shares: list[np.ndarray]
    #: About how many rounds the walk visits.
    visits: int
    #: The cards counted by suit pattern (None: suits as they are), and the suits each
    #: pattern shows, named in order of first appearance.
    suit_patterns: SuitPatterns | None = None
    pattern_suits: np.ndarray | None = None


def lay_out(card_plan: CardPlan, shoe: Shoe, tableau: Tableau = STANDARD_TABLEAU) -> Layout:
    """The layout of ``card_plan`` on ``shoe``, the hands drawing by ``tableau``; refused
    (:class:`~analyzer.errors.AnalyzerError`) where it needs suits the shoe does not know,
    or more cells (:data:`MAX_CELLS`) or rounds (:data:`MAX_VISITS`) than are counted."""
    if card_plan.needs_suits and not shoe.suits_known:
        raise AnalyzerError(
            "the suits of some cards are unknown: suits and colours cannot be counted exactly"
        )
    types = fine_types(card_plan, shoe)
    frame, n_first, n_classes = _cached(
        ("frame", card_plan.key, tableau, types.members.tobytes()),
        lambda: _frame(card_plan, types, tableau),
    )
    walked = frame.visits
    if walked > MAX_VISITS:
        raise AnalyzerError(
            f"the bets ask for about {walked:.1e} kinds of deal to be told apart (at most "
            f"{MAX_VISITS:.0e} are walked): they ask too much of too many cards at once"
        )
    cells = prod(frame.shape)
    if cells > MAX_CELLS:
        raise AnalyzerError(
            f"the bets ask for {cells:,} distinct kinds of round at once (at most "
            f"{MAX_CELLS:,} are counted exactly in one table): split the paytable"
        )
    deal = frame.deal._replace(
        type_counts=types.counts,
        flush_suit_counts=(
            types.suit_counts if card_plan.flush_sum else np.zeros((len(types.counts), 0), np.int64)
        ),
        value_counts=shoe.value_counts.astype(np.int64),
        total=int(shoe.value_counts.sum()),
        take=shoe.take,
    )
    suit_patterns = frame.suit_patterns
    if suit_patterns is not None:
        suit_patterns = suit_patterns._replace(type_suit_counts=types.suit_counts)
    return Layout(
        card_plan,
        types,
        deal,
        frame.shape,
        frame.outcome_columns,
        frame.shown,
        frame.walk_digits,
        frame.split,
        shares(walked, n_first),
        shares(walked, n_classes),
        walked,
        suit_patterns,
        frame.pattern_suits,
    )


def _frame(
    card_plan: CardPlan, types: FineTypes, tableau: Tableau
) -> tuple[Layout, list[int], list[int]]:
    """All of a layout but the shoe's counts (left at those of ``types``) and its shares:
    the same for every shoe holding the same fine types, so made once for them all; and
    the classes of the first cards its shares fix (the split walk's, the card walk's)."""
    fine = np.array(card_plan.fine)
    fine_codes = np.zeros((ROUND_CARDS, len(types.counts)), dtype=np.int64)
    value_codes = np.zeros((ROUND_CARDS, N_VALUES), dtype=np.int64)
    radix = np.ones(ROUND_CARDS, dtype=np.int64)
    not_dealt = np.zeros(ROUND_CARDS, dtype=np.int64)
    shown = []
    for card in range(ROUND_CARDS):
        codes, rows, n_codes = _codes(card_plan, card, types)
        (fine_codes if card_plan.fine[card] else value_codes)[card] = codes
        if card >= 4 and card_plan.needs[card]:  # a third card may not be dealt
            not_dealt[card] = n_codes
            n_codes += 1
        radix[card] = n_codes
        shown.append(rows)
    outcome_code, outcome_columns = _outcome_codes(card_plan.outcome, tableau.naturals)
    n_outcomes = int(outcome_code.max()) + 1
    walk = WalkFields(**{name: name in card_plan.walk for name in WALK_DIGITS})
    walk_digits = tuple(name for name in WALK_DIGITS if name in card_plan.walk)
    shape = (n_outcomes, *radix.tolist(), *(_WALK_RADIX[name] for name in walk_digits))
    suit_patterns = pattern_suits = None
    by_pattern = np.zeros(ROUND_CARDS, dtype=np.bool_)
    if card_plan.suit_pattern:
        code_index, pattern_suits = _suit_pattern_codes(card_plan.suit_pattern)
        cards = np.array(card_plan.suit_pattern, dtype=np.int64)
        suit_patterns = SuitPatterns(cards, code_index, _NO_CODES)  # (counts: the shoe's)
        by_pattern[cards] = True
        shape = (*shape, len(pattern_suits))
    by_value = [np.nonzero(types.values == v)[0] for v in range(N_VALUES)]
    types_of_value = np.zeros((N_VALUES, max(1, *map(len, by_value))), dtype=np.int64)
    for v, members in enumerate(by_value):
        types_of_value[v, : len(members)] = members
    deal = Deal(
        type_counts=_NO_CODES,  # (these five are the shoe's: lay_out sets them)
        type_values=types.values,
        type_ranks=types.ranks,
        type_suits=types.suits,
        flush_suit_counts=np.zeros((0, 0), dtype=np.int64),
        value_counts=_NO_CODES,
        total=0,
        take=1,
        fine=fine,
        by_pattern=by_pattern,
        fine_codes=fine_codes,
        value_codes=value_codes,
        radix=radix,
        not_dealt=not_dealt,
        outcome_code=outcome_code,
        third_card=tableau.third_card,
        walk=walk,
        pattern_index=_PATTERN_INDEX,
        four_codes=(
            _four_codes()
            if {"first_four_pattern", "first_four_straight"} & set(card_plan.walk)
            else _NO_CODES
        ),
        order=np.array(card_plan.dealt_alone, dtype=np.int64),
        types_of_value=types_of_value,
        n_types_of_value=np.array([len(members) for members in by_value], dtype=np.int64),
    )
    # (The split walk deals no suit patterns: those rounds are walked card by card.)
    split = not card_plan.dealt_alone and not fine[4:].any() and suit_patterns is None
    # The split walk's shares are the first cards' point values; the other's, classes.
    first = card_plan.dealt_alone[:2] or (0, 1)
    n_classes = [N_VALUES if not fine[card] else len(types.counts) for card in first]
    n_first = [N_VALUES for _ in first] if split else n_classes
    walked = visits(card_plan, len(types.counts))
    laid = Layout(
        card_plan,
        types,
        deal,
        shape,
        outcome_columns,
        shown,
        walk_digits,
        split,
        [],
        [],
        walked,
        suit_patterns,
        pattern_suits,
    )
    return laid, n_first, n_classes


def shares(walked: int, n_first: list[int]) -> list[np.ndarray]:
    """The shares of a walk of ``walked`` rounds: every class of none, one or two of its
    first cards (``n_first`` classes each), as few as keep each share to SHARE_VISITS."""
    fixed = 0
    while fixed < len(n_first) and walked > SHARE_VISITS:
        walked //= n_first[fixed]
        fixed += 1
    if not fixed:
        return [_WHOLE]
    grid = np.indices(n_first[:fixed]).reshape(fixed, -1).T
    return [np.ascontiguousarray(share, dtype=np.int64) for share in grid]


def visits(card_plan: CardPlan, n_types: int) -> int:
    """About how many rounds the walk of ``card_plan`` visits with ``n_types`` fine types
    (the split walk: about as many)."""
    classes = [n_types if fine else N_VALUES for fine in card_plan.fine]
    # Each round is counted once per pattern of the suits it deals (fewer where a third
    # card is missing).
    patterns = n_partitions(len(card_plan.suit_pattern))
    if card_plan.dealt_alone:
        return prod(classes[card] for card in card_plan.dealt_alone) * patterns
    return prod(classes[:4]) * (1 + classes[4] * (1 + classes[5])) * patterns


def key_columns(layout: Layout, keys: np.ndarray) -> dict[str, np.ndarray]:
    """The fields of the rounds with these keys (flat indices into ``layout.shape``)."""
    card_plan = layout.plan
    digits = np.unravel_index(keys, layout.shape)
    columns = {f: values[digits[0]] for f, values in layout.outcome_columns.items()}
    for card, rows in enumerate(layout.shown):
        columns |= _card_columns(card, rows, digits[1 + card])
    for i, name in enumerate(layout.walk_digits):
        digit = digits[1 + ROUND_CARDS + i]
        if name == "max_card_value":
            columns[name] = digit.astype(np.int64)
        elif FIELD[name].kind is bool:
            columns[name] = digit == 1
        else:
            columns[name] = np.array(PATTERNS)[digit]
    if layout.pattern_suits is not None:
        # The suits named in order of first appearance: a bet that only compares suits
        # with each other settles each pattern as it would any one labelling of it.
        suits = layout.pattern_suits[digits[-1]]
        for i, card in enumerate(card_plan.suit_pattern):
            columns[f"{CARDS[card]}_suit"] = suits[:, i]
    columns |= _pair_columns(card_plan, columns)
    return {f: columns[f] for f in card_plan.fields}


def _card_columns(card: int, rows: list[dict], code: np.ndarray) -> dict[str, np.ndarray]:
    """The fields of one card from its key digits (the code past the rows: not dealt)."""
    name = CARDS[card]
    columns = {}
    for attribute in rows[0] if rows else ():
        if attribute == "value":
            table = np.array([row[attribute] for row in rows] + [NO_THIRD_CARD], dtype=np.int64)
        else:
            table = np.array([str(row[attribute]) for row in rows] + [NOT_DEALT])
        columns[f"{name}_{attribute}"] = table[code]
    return columns


def _pair_columns(card_plan: CardPlan, columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Pair fields asked alongside card fields, from the first two cards of each hand."""
    out = {}
    for hand, first, second in (
        ("player", "player_card1", "player_card2"),
        ("banker", "banker_card1", "banker_card2"),
    ):
        if f"{hand}_pair" in card_plan.fields or f"{hand}_suited_pair" in card_plan.fields:
            same_rank = columns[f"{first}_rank"] == columns[f"{second}_rank"]
            out[f"{hand}_pair"] = same_rank
            if f"{hand}_suited_pair" in card_plan.fields:
                out[f"{hand}_suited_pair"] = same_rank & (
                    columns[f"{first}_suit"] == columns[f"{second}_suit"]
                )
    return out
