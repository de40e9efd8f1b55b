"""The batch engine of a game dealt once: every bet's exact EV on many shoes at once.

A round of a game of :mod:`analyzer.game.games` that nobody draws in (Dragon Tiger, Three
Card Baccarat, a game of one's own without extra cards or a decision) is its first deal:
``k`` cards off the shoe. Of a shoe holding ``n_c`` cards of each card *class* (``N`` in
all), an ordered sequence of classes that takes ``m_c`` cards of class ``c`` is dealt in
``prod_c ff(n_c, m_c)`` ways of ``ff(N, k)`` (``ff``: the falling factorial), a weight that
depends only on the sequence's multiset of classes, its *term*. So every bet's expected
net per unit staked is::

    EV(n) = sum_t  C[t] * prod_c ff(n_c, m_{t,c}) / ff(N, k)

over the terms ``t`` (the multisets of ``k`` classes), ``C[t]`` being the bet's net summed
over the class sequences of term ``t``. The coefficients are worked out once
(:func:`game_terms`): every sequence of classes the deal walk meets is turned into the
fields a condition asks about by the game's own definition
(:meth:`~analyzer.game.games.Game.columns`) and settled by the paytable's rules as every
engine settles them (:class:`~analyzer.paytables.settle.Settlement`); a multiplied bet
nets its rule's expected net at the pattern of cards it counts, as the exact analysis
prices it. Per composition (:func:`game_expected_values`) a Numba kernel then weighs
every term, a block of compositions at a time, and one matrix product gives every bet.

Card classes are the coarsest the fields tell apart: by rank where the game is scored by
rank or a field reads a card's rank (13), else by point value and picture (Ace to 9, the
ten, a picture: 11), times the suit where a bet looks at suits (Dragon Tiger's Suited
Tie: 52). Dragon Tiger's bets sum 91 terms a round by rank, 1,378 by card; Three Card
Baccarat's 8,008 (six cards of 11 classes).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numba import njit

from analyzer.engine.rows import unique_rows
from analyzer.errors import AnalyzerError
from analyzer.game.cards import CARD_RANKS, CARD_SUITS, N_CARDS, N_RANKS, N_SUITS, RANK_VALUES
from analyzer.game.games import FIRST_PICTURE, Game, counted_field, decoded
from analyzer.game.identities import IDENTITY_PATTERNS
from analyzer.paytables.model import EVERY_GAME_COMMANDS, Bet
from analyzer.paytables.settle import Settlement, check_ties_counted, row_patterns, settling_rule

__all__ = [
    "MAX_ROUND_TERMS",
    "GameBatch",
    "GameTerms",
    "card_classes",
    "check_dealt_once",
    "check_round_terms",
    "game_batch",
    "game_expected_values",
    "game_terms",
    "terms_count",
]

#: Term weights held at once per block of compositions (float64: 32 MB).
_BLOCK_WEIGHTS = 4_000_000
#: The most terms one round's exact EV may sum, over every group of bets: some 2 ms a
#: round on one core (Three Card Baccarat's 8,008 take 0.13 ms; Dragon Tiger's 1,469,
#: every bet with its Suited Tie, 0.02 ms). The deal walk's own budget, which every count
#: of a game meets first, keeps a round under it today (at most four groups of 24,804
#: terms: three cards by suit); it stays the bound should that budget grow.
MAX_ROUND_TERMS = 100_000


def check_dealt_once(game: Game, what: str) -> None:
    """Refuse, in one line, ``what`` for a game whose hands draw after the first deal or
    with a player's decision: its rounds take different numbers of cards, played by a
    strategy solved per shoe, and are not priced here."""
    if game.by_values:
        why = (
            "a player's decision"
            if game.decision is not None
            else "cards drawn after the first deal"
        )
        *most, last = EVERY_GAME_COMMANDS
        raise AnalyzerError(
            f"{what} works out the exact EV of a round of a game dealt once; {game.name} "
            f"has {why} ({', '.join(most)} and {last} take it)"
        )


def _by_rank(game: Game, fields: frozenset[str]) -> bool:
    """Must cards be told apart by rank (not only by point value and picture)?"""
    identities = any(name.startswith(counted_field("", "identities")) for name in fields)
    rank_field = any(
        name.endswith("_rank") and name in game.vocabulary and game.vocabulary[name].card_level
        for name in fields
    )
    return game.score == "rank" or identities or rank_field


def card_classes(game: Game, fields: frozenset[str]) -> np.ndarray:
    """The class (0, 1, ...) of each card index 0..51 for bets reading ``fields``: cards
    of one class are alike to every such field (see the module's description).

    Examples
    --------
    >>> from analyzer.game.games import named_game
    >>> dragon_tiger = named_game("dragon-tiger")
    >>> int(card_classes(dragon_tiger, frozenset({"winner"})).max()) + 1  # by rank
    13
    >>> int(card_classes(dragon_tiger, frozenset({"winner", "dragon_card1_suit"})).max()) + 1
    52
    """
    if _by_rank(game, fields):
        keys = list(range(N_RANKS))
    else:
        keys = [(int(RANK_VALUES[r]), r >= FIRST_PICTURE) for r in range(N_RANKS)]
    index: dict[object, int] = {}
    rank_class = np.array([index.setdefault(key, len(index)) for key in keys], dtype=np.int64)
    if game.needs_suits(fields):
        card = rank_class[CARD_RANKS] * N_SUITS + CARD_SUITS
        _, dense = np.unique(card, return_inverse=True)
        return dense.astype(np.int64)
    return rank_class[CARD_RANKS]


def _groups(game: Game, bets: list[Bet] | tuple[Bet, ...]) -> list[list[int]]:
    """The bets (their indices) grouped by the card classes they tell apart: each group
    is compiled and weighed on its own classes (Dragon Tiger's bets by rank sum 91 terms
    a round, not the 1,378 its Suited Tie needs)."""
    groups: dict[bytes, list[int]] = {}
    for b, bet in enumerate(bets):
        groups.setdefault(card_classes(game, bet.fields).tobytes(), []).append(b)
    return list(groups.values())


def check_round_terms(game: Game, bets: list[Bet] | tuple[Bet, ...]) -> None:
    """Refuse, in one line and before anything is compiled, ``bets`` whose round sums
    more than :data:`MAX_ROUND_TERMS` terms (:func:`terms_count`)."""
    terms = terms_count(game, bets)
    if terms > MAX_ROUND_TERMS:
        raise AnalyzerError(
            f"{game.name}: the exact EV of each round sums {terms:,} terms, over the budget "
            f"of {MAX_ROUND_TERMS:,} a round: choose fewer bets on single cards or suits"
        )


def terms_count(game: Game, bets: list[Bet] | tuple[Bet, ...]) -> int:
    """The terms a round of ``game`` sums for ``bets``, over their groups (see
    :func:`game_batch`): the multisets of ``game.cards`` card classes, what one
    composition costs (for a run's budget), known before anything is compiled.

    Examples
    --------
    >>> from analyzer.paytables.library import as_paytable
    >>> table = as_paytable("dragon-tiger")
    >>> tie = table.bet("tie", "standard")
    >>> terms_count(table.game, [tie]), terms_count(table.game, table.bets)
    (91, 1469)
    """
    total = 0
    for group in _groups(game, bets):
        fields = frozenset().union(*(bets[b].fields for b in group))
        classes = int(card_classes(game, fields).max()) + 1
        total += math.comb(classes + game.cards - 1, game.cards)
    return total


@dataclass(frozen=True, eq=False)
class GameTerms:
    """The compiled rounds of a game dealt once, for ``bets`` (see the module's
    description): ``card_class`` (the class of each card index); each term's factors
    (``factors``, a row per term: ``class * (cards + 1) + m`` stands for ``ff(n_class,
    m)``, padded with 0, a factor of 1), the terms in lexicographic order of their
    factors so that each shares ``shared`` leading factors with the one before; and
    ``coefficients`` (a row per term, a column per bet: the net per unit staked summed
    over the term's class sequences, correctly rounded from its exact value)."""

    game: Game
    bets: tuple[Bet, ...]
    card_class: np.ndarray
    factors: np.ndarray
    shared: np.ndarray
    coefficients: np.ndarray

    @property
    def cards(self) -> int:
        """Cards of a round."""
        return self.game.cards

    @property
    def n_classes(self) -> int:
        """Card classes told apart."""
        return int(self.card_class.max()) + 1

    def __len__(self) -> int:
        """The terms a round sums."""
        return len(self.factors)


def game_terms(game: Game, bets: list[Bet] | tuple[Bet, ...]) -> GameTerms:
    """The terms and coefficients of ``bets`` on ``game`` (see the module's description),
    exact until each coefficient is rounded once to a float.

    Raises
    ------
    AnalyzerError
        A game whose hands draw or decide (:func:`check_dealt_once`), or a bet paying by
        the winner's cards on a tie.
    """
    check_dealt_once(game, "the batch engine")
    fields = frozenset().union(*(bet.fields for bet in bets))
    card_class = card_classes(game, fields)
    n_classes = int(card_class.max()) + 1
    # One card of each class stands for it: the fields are alike for all of its cards.
    representative = np.array(
        [int(np.flatnonzero(card_class == c)[0]) for c in range(n_classes)], dtype=np.int64
    )
    classes, orders = _class_rows(game, fields, n_classes)
    cards = representative[classes]
    suits = CARD_SUITS[cards] if game.needs_suits(fields) else None
    columns = game.columns(CARD_RANKS[cards], suits, fields)
    codes = np.column_stack([codes for codes, _ in columns.values()])
    _, first, row_of = unique_rows(codes)
    outcomes = {name: decoded(codes[first], texts) for name, (codes, texts) in columns.items()}
    # Each row's term: its classes as a multiset (sorted).
    ordered = np.sort(classes, axis=1)
    terms, _, term_of = unique_rows(ordered)
    factors = _factors(terms, game.cards)
    # Lexicographic order of the factors: each term reuses the partial products of the
    # factors it shares with the one before.
    order = np.lexsort(factors.T[::-1])
    factors, term_of = factors[order], np.argsort(order)[term_of]
    same = factors[1:] == factors[:-1]
    shared = np.concatenate([[0], np.where(same.all(axis=1), same.shape[1], same.argmin(axis=1))])
    coefficients = np.empty((len(terms), len(bets)))
    for b, bet in enumerate(bets):
        nets = _outcome_nets(bet, outcomes)
        coefficients[:, b] = _summed(nets, row_of, term_of, orders, len(terms))
    shared = shared.astype(np.int64)
    for array in (card_class, factors, shared, coefficients):
        array.setflags(write=False)
    return GameTerms(game, tuple(bets), card_class, factors, shared, coefficients)


def _class_rows(game: Game, fields: frozenset[str], n_classes: int) -> tuple:
    """The rounds to settle, as class sequences (a row per round, a column per card in
    dealing order) and how many ordered sequences each stands for: every sequence where a
    field reads single cards or suits; else each pair of hands as multisets (a hand's
    classes in ascending order), standing for the orders within each hand."""
    n_cards = game.cards
    by_card = game.needs_suits(fields) or any(
        name in game.vocabulary and game.vocabulary[name].card_level for name in fields
    )
    if by_card:
        grid = np.indices((n_classes,) * n_cards).reshape(n_cards, -1).T
        return np.ascontiguousarray(grid, dtype=np.int64), np.ones(len(grid), dtype=np.int64)
    hands = []
    for hand in game.hands:
        combos = np.array(
            list(itertools.combinations_with_replacement(range(n_classes), hand.cards)),
            dtype=np.int64,
        )
        multiplicity = np.stack([(combos == c).sum(axis=1) for c in range(n_classes)], axis=1)
        within = math.factorial(hand.cards) // np.prod(
            [[math.factorial(int(m)) for m in row] for row in multiplicity], axis=1
        )
        hands.append((combos, within.astype(np.int64)))
    (first, first_orders), (second, second_orders) = hands
    i = np.repeat(np.arange(len(first)), len(second))
    j = np.tile(np.arange(len(second)), len(first))
    held = {0: first[i], 1: second[j]}
    classes = np.empty((len(i), n_cards), dtype=np.int64)
    for position, (h, number) in enumerate(game.positions):
        classes[:, position] = held[h][:, number - 1]
    return classes, first_orders[i] * second_orders[j]


def _factors(terms: np.ndarray, n_cards: int) -> np.ndarray:
    """Each term (a sorted row of classes) as the factors ``class * (n_cards + 1) + m``
    of its distinct classes (``m`` cards of each), padded with 0 (``ff(n, 0) = 1``)."""
    n_terms, width = terms.shape
    factors = np.zeros((n_terms, width), dtype=np.int64)
    power = np.zeros((n_terms, width), dtype=np.int64)
    slot = np.zeros(n_terms, dtype=np.int64)
    rows = np.arange(n_terms)
    for column in range(width):
        if column:
            slot = slot + (terms[:, column] != terms[:, column - 1])
        power[rows, slot] += 1
        factors[rows, slot] = terms[:, column] * (n_cards + 1) + power[rows, slot]
    return factors


def _outcome_nets(bet: Bet, outcomes: dict[str, np.ndarray]) -> list[Fraction]:
    """The net per unit staked (before any fee) of ``bet`` on each distinct outcome: its
    settling rule's net, or for a multiplied bet that rule's expected net at the
    pattern of the cards it counts (the multiplier's exact moments)."""
    n_rows = len(next(iter(outcomes.values())))
    settlement = Settlement(bet)
    index = settling_rule(bet, outcomes, n_rows)
    if not bet.multiplied:
        nets = settlement.nets()
        return [nets[rule] for rule in index.tolist()]
    check_ties_counted(bet, index, outcomes["winner"])
    patterns = row_patterns(bet, outcomes)
    return [
        settlement.moments(rule, IDENTITY_PATTERNS[pattern])[0]
        for rule, pattern in zip(index.tolist(), patterns.tolist(), strict=True)
    ]


def _summed(
    nets: list[Fraction], row_of: np.ndarray, term_of: np.ndarray, orders: np.ndarray, n_terms: int
) -> np.ndarray:
    """Per term, the nets of its rounds (outcome ``row_of``, ``orders`` sequences each)
    summed exactly, then rounded once to a float (a quotient of Python integers is
    correctly rounded)."""
    distinct = sorted(set(nets))
    denominator = math.lcm(*(net.denominator for net in distinct))
    code = np.array([distinct.index(net) for net in nets], dtype=np.int64)[row_of]
    total = [0] * n_terms
    for j, net in enumerate(distinct):
        numerator = int(net * denominator)
        if not numerator:
            continue
        chosen = code == j
        per_term = np.zeros(n_terms, dtype=np.int64)
        np.add.at(per_term, term_of[chosen], orders[chosen])
        for t in np.flatnonzero(per_term).tolist():
            total[t] += int(per_term[t]) * numerator
    return np.array([value / denominator for value in total], dtype=np.float64)


@njit(cache=True)
def _term_weights_jit(counts, card_class, n_classes, factors, shared, n_cards, out):
    """Each term's chance per composition: ``out[r, t]``, the product of its factors
    over ``ff(N, n_cards)``, each term reusing the partial product of the leading factors
    it shares with the one before.

    Parameters
    ----------
    counts : int64[R, 52]
        Cards of each card index left, a row per composition (at least ``n_cards``).
    card_class : int64[52]
        The class of each card index.
    n_classes : int
    factors : int64[T, W]
        Each term's factors: ``class * (n_cards + 1) + m`` for ``ff(n_class, m)``, 0
        for a factor of 1.
    shared : int64[T]
        The leading factors each term shares with the one before (0 for the first).
    n_cards : int
        Cards of a round.
    out : float64[R, T]
        Filled with the chances.
    """
    n_rows = counts.shape[0]
    n_terms, width = factors.shape
    by_class = np.zeros(n_classes, dtype=np.int64)
    ff = np.ones(n_classes * (n_cards + 1))
    partial = np.ones(width + 1)
    for r in range(n_rows):
        by_class[:] = 0
        total = 0
        for card in range(counts.shape[1]):
            by_class[card_class[card]] += counts[r, card]
            total += counts[r, card]
        denominator = 1.0
        for j in range(n_cards):
            denominator *= total - j
        # ff(n, m) of every class, over ff(N, k): the first factor carries the division.
        partial[0] = 1.0 / denominator
        for c in range(n_classes):
            base = c * (n_cards + 1)
            for m in range(1, n_cards + 1):
                ff[base + m] = ff[base + m - 1] * (by_class[c] - m + 1)
        for t in range(n_terms):
            for j in range(shared[t], width):
                partial[j + 1] = partial[j] * ff[factors[t, j]]
            out[r, t] = partial[width]


def _counts(compositions: np.ndarray, cards: int) -> np.ndarray:
    """Compositions checked: (n, 52) non-negative card counts, each of a round's cards."""
    counts = np.ascontiguousarray(compositions, dtype=np.int64)
    if counts.ndim != 2 or counts.shape[1] != N_CARDS:
        raise AnalyzerError(f"compositions are (n, {N_CARDS}) card counts, got {counts.shape}")
    if (counts < 0).any() or (counts.sum(axis=1) < cards).any():
        raise AnalyzerError(f"a composition needs at least {cards} cards and no negative count")
    return counts


def game_expected_values(terms: GameTerms, compositions: np.ndarray) -> np.ndarray:
    """The exact EV per unit paid (a bet's fee included) of each of ``terms.bets`` on
    each composition, in floats: (n, bets).

    Parameters
    ----------
    terms : GameTerms
        The compiled bets (:func:`game_terms`).
    compositions : int64 array, shape (n, 52)
        Cards of each card index left (:func:`~analyzer.game.cards.card_index`), a row
        per shoe, each holding at least a round's cards.

    Returns
    -------
    float64 array, shape (n, bets)

    Raises
    ------
    AnalyzerError
        Compositions of the wrong shape, negative counts or too few cards for a round.

    Examples
    --------
    >>> from analyzer.paytables.library import as_paytable
    >>> table = as_paytable("dragon-tiger")
    >>> terms = game_terms(table.game, [table.bet("tie", "standard")])
    >>> full = np.full((1, 52), 8)  # eight decks: the Tie pays 8 to 1
    >>> round(float(game_expected_values(terms, full)[0, 0]), 6)
    -0.327711
    """
    counts = _counts(compositions, terms.cards)
    n_terms = len(terms)
    out = np.empty((len(counts), len(terms.bets)))
    block = max(1, _BLOCK_WEIGHTS // n_terms)
    weights = np.empty((min(block, len(counts)), n_terms))
    for first in range(0, len(counts), block):
        part = counts[first : first + block]
        held = weights[: len(part)]
        _term_weights_jit(
            part,
            terms.card_class,
            terms.n_classes,
            terms.factors,
            terms.shared,
            terms.cards,
            held,
        )
        out[first : first + len(part)] = held @ terms.coefficients
    for b, bet in enumerate(terms.bets):
        out[:, b] = Settlement(bet).per_paid(out[:, b])
    return out


@dataclass(frozen=True, eq=False)
class GameBatch:
    """Bets of a game dealt once compiled in groups, each on the card classes its bets
    tell apart (:func:`game_batch`): ``groups``, each group's terms and the indices of
    its bets among ``n_bets``."""

    groups: tuple[tuple[GameTerms, tuple[int, ...]], ...]
    n_bets: int

    @property
    def terms(self) -> int:
        """The terms a round sums, over every group."""
        return sum(len(terms) for terms, _ in self.groups)

    def expected_values(self, compositions: np.ndarray) -> np.ndarray:
        """The exact EV per unit paid of every bet on each composition, (n, bets), as
        :func:`game_expected_values` gives each group's."""
        counts = _counts(compositions, self.groups[0][0].cards)
        out = np.empty((len(counts), self.n_bets))
        for terms, columns in self.groups:
            out[:, list(columns)] = game_expected_values(terms, counts)
        return out


def game_batch(game: Game, bets: list[Bet] | tuple[Bet, ...]) -> GameBatch:
    """``bets`` of ``game`` compiled, grouped by the card classes each tells apart (a
    group's terms are those of its classes: :func:`game_terms`).

    Examples
    --------
    >>> from analyzer.paytables.library import as_paytable
    >>> table = as_paytable("dragon-tiger")
    >>> bets = [table.bet("tie", "standard"), table.bet("suited_tie", "standard")]
    >>> batch = game_batch(table.game, bets)
    >>> batch.terms  # the Tie by rank (91), the Suited Tie by card (1,378)
    1469
    >>> np.round(batch.expected_values(np.full((1, 52), 8)), 6)
    array([[-0.327711, -0.139759]])
    """
    groups = []
    for group in _groups(game, bets):
        groups.append((game_terms(game, [bets[b] for b in group]), tuple(group)))
    return GameBatch(tuple(groups), len(bets))
