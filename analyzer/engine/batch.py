"""The batch engine: every bet of a paytable on many shoe compositions at once (floats).

Value-level bets use the compiled walk (:mod:`analyzer.engine.terms`): per composition, each
term's weight is a product of a few falling factorials of the counts. Rounds are grouped
into outcome classes, one per distinct vector of the bets' payouts; each term's weight goes
into the classes its rounds end in, and each bet's expected value is its ``net + 1`` over
the classes. ``net + 1`` is zero on a loss, which leaves out the rounds every bet loses
(most of them, for side bets); ``- 1`` restores the EV because the weights of all rounds
sum to the denominator. Compositions are processed in blocks so the inner loops run over
contiguous arrays and vectorise.

Bets on pairs alone use closed forms of the joint distribution of the two hands' pair
states. Bets on single cards, and pairs joined with the result, use the card walk compiled
the same way (:func:`analyzer.engine.card_walk.card_terms`): terms over the card types the
bet tells apart, each a product of at most seven falling factorials, evaluated by the same
kernel. Compiling takes up to a few seconds, once per process; where it would take longer,
or for a handful of compositions, each composition is walked exactly instead, as are the
bets paying random multipliers (one identity walk per composition, every kind at once).
Which of these prices a bet is :mod:`analyzer.engine.pricing`'s to say; every figure is
per unit paid (a bet's fee included: :class:`~analyzer.paytables.settle.Settlement`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import lcm, prod

import numpy as np
import pandas as pd
from numba import njit

from analyzer.engine.card_walk import (
    COMPILING,
    MAX_COMMAND_VISITS,
    CardTerms,
    CardWalk,
    card_terms,
    plan,
    walk_key,
    walk_visits,
)
from analyzer.engine.enumerator import mixture_outcomes
from analyzer.engine.identities import WALK_COST as IDENTITY_WALK_COST
from analyzer.engine.identities import identity_outcomes_of
from analyzer.engine.outcomes import identity_tables, outcome_table
from analyzer.engine.pricing import Pricing, pricing, table_detail
from analyzer.engine.rows import unique_rows
from analyzer.engine.terms import cell_columns, walk_terms
from analyzer.errors import AnalyzerError
from analyzer.game.cards import CARD_RANKS, N_CARDS, N_RANKS, N_SUITS, N_VALUES, RANK_VALUES
from analyzer.game.fields import (
    N_PAIR_STATES,
    NO_PAIR,
    RANK_PAIR,
    SUITED_PAIR,
    fold_suited_pairs,
    pair_columns,
)
from analyzer.game.rules import STANDARD, STANDARD_TABLEAU, DrawingRules, Strategy, Tableau
from analyzer.game.shoe import (
    MAX_CARDS,
    ROUND_CARDS,
    Shoe,
    count_name,
    counts_as_given,
    whole_counts,
)
from analyzer.memo import Kept
from analyzer.paytables.library import as_paytable
from analyzer.paytables.model import Bet, Paytable
from analyzer.paytables.settle import Settlement, settling_rule

_BLOCK = 128


# fastmath lets LLVM fuse multiply-adds across the block loops; every loop is elementwise
# over compositions, so no sum is reordered (measured error stays ~1e-15).
@njit(cache=True, fastmath=True)
def _terms_ev_jit(
    counts,
    factor_slot,
    factor_offset,
    factor_power,
    term_factor,
    term_shared,
    row_start,
    row_class,
    row_count,
    class_plus_one,
    out,
):
    """Expected value of every compiled bet on every composition, from the terms.

    Compositions are taken in blocks of ``_BLOCK``. Per block each distinct factor
    ``ff(counts[slot] - offset, power)`` is tabled once; a term's weight is the product
    of a few of them, added into the outcome classes its rounds end in. Terms come in
    lexicographic order of their factors, so each reuses the partial products it shares
    with the one before.

    Parameters
    ----------
    counts : float64[n, n_slots]
        Each composition's count vector; the last slot is the number of cards.
    factor_slot, factor_offset, factor_power : int64[F]
        The distinct factors.
    term_factor : int64[K, max_factors]
        Each term's factors (indices into the above), padded with -1.
    term_shared : int64[K]
        How many leading factors each term shares with the one before.
    row_start : int64[K + 1]
        Where each term's rows start in ``row_class``/``row_count`` (CSR by term).
    row_class : int64[nnz]
        The outcome class of each row (see :class:`_Coefficients`).
    row_count : float64[nnz]
        How many of the term's rounds end in that class.
    class_plus_one : float64[n_classes, n_bets]
        Each bet's net + 1 in each class.
    out : float64[n, n_bets]
        On return ``out[i, b]``: the EV per unit of bet ``b`` on composition ``i``.
    """
    n_comps, n_slots = counts.shape
    n_terms, max_factors = term_factor.shape
    table = np.empty((factor_slot.shape[0], _BLOCK))
    # partial[k]: the product of a term's first k factors.
    partial = np.ones((max_factors + 1, _BLOCK))
    denominator = np.empty(_BLOCK)
    acc = np.empty((class_plus_one.shape[0], _BLOCK))
    sums = np.empty(_BLOCK)
    for start in range(0, n_comps, _BLOCK):
        size = min(_BLOCK, n_comps - start)
        for f in range(factor_slot.shape[0]):
            slot = factor_slot[f]
            offset = factor_offset[f]
            for i in range(size):
                n = counts[start + i, slot] - offset
                x = 1.0
                for j in range(factor_power[f]):
                    x *= n - j
                table[f, i] = x
        for i in range(size):
            d = 1.0
            for j in range(ROUND_CARDS):
                d *= counts[start + i, n_slots - 1] - j
            denominator[i] = d
        acc[:, :size] = 0.0
        for t in range(n_terms):
            last = 0
            for k in range(max_factors):
                f = term_factor[t, k]
                if f < 0:
                    break
                last = k + 1
                if k >= term_shared[t]:
                    for i in range(size):
                        partial[last, i] = partial[k, i] * table[f, i]
            for r in range(row_start[t], row_start[t + 1]):
                c = row_class[r]
                w = row_count[r]
                for i in range(size):
                    acc[c, i] += w * partial[last, i]
        for b in range(out.shape[1]):
            sums[:size] = 0.0
            for c in range(acc.shape[0]):
                p = class_plus_one[c, b]
                if p != 0.0:
                    for i in range(size):
                        sums[i] += p * acc[c, i]
            for i in range(size):
                out[start + i, b] = sums[i] / denominator[i] - 1.0


@dataclass(frozen=True, eq=False)
class _CompiledTerms:
    """Bets compiled for :func:`_terms_ev_jit`.

    Rounds are grouped into outcome classes, one per distinct vector of the bets' payouts
    (rounds every bet loses are left out, and so are terms with no other round). Per
    composition, each term's weight goes into the classes its rounds end in
    (``row_count`` rounds of the term in class ``row_class``, CSR by term through
    ``row_start``); each bet's EV is then its ``net + 1`` in each class
    (``class_plus_one``) over the classes' sums, less 1. Bets that pay on the same rounds
    (the Lucky Six family) share rows, so each bet beyond the first costs a few dozen
    products per composition, not a row per term.
    """

    factor_slot: np.ndarray
    factor_offset: np.ndarray
    factor_power: np.ndarray
    term_factor: np.ndarray
    term_shared: np.ndarray
    row_start: np.ndarray
    row_class: np.ndarray
    row_count: np.ndarray
    class_plus_one: np.ndarray
    #: The card walk's terms, whose ``term_counts`` gives the count vectors (None for
    #: value-level bets: the counts of the 10 point values, then of all cards).
    card_terms: CardTerms | None = None

    def expected_values(self, counts: np.ndarray) -> np.ndarray:
        """EV per unit of each compiled bet on each count vector, (n, bets)."""
        out = np.empty((len(counts), self.class_plus_one.shape[1]))
        _terms_ev_jit(
            np.ascontiguousarray(counts, dtype=np.float64),
            self.factor_slot,
            self.factor_offset,
            self.factor_power,
            self.term_factor,
            self.term_shared,
            self.row_start,
            self.row_class,
            self.row_count,
            self.class_plus_one,
            out,
        )
        return out


def _class_of(plus_one_by_row: list[tuple], index: dict[tuple, int]) -> np.ndarray:
    """Each row's outcome class, from its exact ``net + 1`` per bet: -1 where every bet
    loses, else the number ``index`` gives that vector (new vectors numbered on, so a
    walk that classifies its cells in batches numbers them all alike)."""
    return np.array(
        [-1 if not any(row) else index.setdefault(row, len(index)) for row in plus_one_by_row],
        dtype=np.int64,
    )


def _class_table(index: dict[tuple, int], n_bets: int) -> np.ndarray:
    """Each class's ``net + 1`` per bet, (n_classes, n_bets) floats."""
    return np.array([[float(x) for x in row] for row in index]).reshape(-1, n_bets)


def _compile_terms(
    factors: list[tuple[tuple[int, int, int], ...]],
    term_index: np.ndarray,
    cell_class: np.ndarray,
    count: np.ndarray,
    class_plus_one: np.ndarray,
    card_terms: CardTerms | None = None,
) -> _CompiledTerms:
    """Compile terms (each a tuple of ``(slot, offset, power)`` factors) whose rounds,
    ``count[i]`` of term ``term_index[i]``, end in class ``cell_class[i]`` (-1: left out)."""
    keep = cell_class >= 0
    used = np.unique(term_index[keep]).tolist()
    # Terms with the same factors weigh the same: they become one.
    order = sorted({factors[t] for t in used})
    place = {term: new for new, term in enumerate(order)}
    position = np.full(len(factors), -1, dtype=np.int64)
    for t in used:
        position[t] = place[factors[t]]
    distinct: dict[tuple[int, int, int], int] = {}
    width = max((len(term) for term in order), default=1)
    term_factor = np.full((len(order), width), -1, dtype=np.int64)
    term_shared = np.zeros(len(order), dtype=np.int64)
    previous: tuple = ()
    for new, term in enumerate(order):
        for k, factor in enumerate(term):
            term_factor[new, k] = distinct.setdefault(factor, len(distinct))
        common = 0
        while common < min(len(term), len(previous)) and term[common] == previous[common]:
            common += 1
        term_shared[new] = common
        previous = term
    triples = np.array(list(distinct), dtype=np.int64).reshape(-1, 3)
    # Rows: the rounds of each (term, class), summed. Counts are far below 2**53, so the
    # float sums are exact.
    n_classes = len(class_plus_one)
    key = position[term_index[keep]] * n_classes + cell_class[keep]
    pairs, where = np.unique(key, return_inverse=True)
    row_count = np.bincount(where.reshape(-1), weights=count[keep], minlength=len(pairs))
    return _CompiledTerms(
        np.ascontiguousarray(triples[:, 0]),
        np.ascontiguousarray(triples[:, 1]),
        np.ascontiguousarray(triples[:, 2]),
        term_factor,
        term_shared,
        np.searchsorted(pairs // n_classes, np.arange(len(order) + 1)).astype(np.int64),
        (pairs % n_classes).astype(np.int64),
        row_count.astype(np.float64),
        np.ascontiguousarray(class_plus_one, dtype=np.float64),
        card_terms,
    )


_COMPILED: dict[tuple, _CompiledTerms | None] = {}


def _compiled_value_bets(bets: list[Bet], tableau: Tableau = STANDARD_TABLEAU) -> _CompiledTerms:
    """Compiled value-level bets, kept per tableau and list of settlements: the same bets
    read again (in a worker, from a pickle) find them compiled; other rules never do."""
    key = (tableau.key, *(bet.settlement for bet in bets))
    if key not in _COMPILED:
        _COMPILED[key] = _compile_value_bets(bets, tableau)
    return _COMPILED[key]


def _compile_value_bets(bets: list[Bet], tableau: Tableau = STANDARD_TABLEAU) -> _CompiledTerms:
    """The walk's terms (:mod:`analyzer.engine.terms`) as factors over the count vector
    (10 point values, then all cards): the tail ``ff(N - u, 6 - u)`` first, so terms
    group by the cards they use, then ``ff(n_v, k_v)`` per value."""
    terms = walk_terms(tableau)
    factors = [
        ((N_VALUES, int(u), ROUND_CARDS - int(u)),) * bool(u < ROUND_CARDS)
        + tuple((int(v), 0, int(k[v])) for v in np.nonzero(k)[0])
        for k, u in zip(terms.k, terms.used, strict=True)
    ]
    cell_class, class_plus_one = _value_classes(bets, tableau)
    return _compile_terms(
        factors, terms.term_index, cell_class[terms.cell_index], terms.count, class_plus_one
    )


_ROUND_TERMS: dict[tuple, _CompiledTerms] = {}


def _held(k: np.ndarray) -> list[tuple[int, int]]:
    """The values a term uses and how many cards of each."""
    return [(int(v), int(k[v])) for v in np.nonzero(k)[0]]


def value_round_terms(bets: list[Bet], tableau: Tableau = STANDARD_TABLEAU) -> _CompiledTerms:
    """The value walk's terms as :func:`analyzer.engine.round_sums.shoe_window_sums`
    sums them over rounds, kept per tableau and list of settlements: every term's first
    factor ``(10, u, 6 - u)`` stands for ``1 / ff(N, u)`` (a round of six cards has one
    too), so a term's weight is already its chance, whatever each round's ``N``."""
    key = (tableau.key, *(bet.settlement for bet in bets))
    if key not in _ROUND_TERMS:
        terms = walk_terms(tableau)
        factors = [
            ((N_VALUES, int(u), ROUND_CARDS - int(u)), *((int(v), 0, int(n)) for v, n in _held(k)))
            for k, u in zip(terms.k, terms.used, strict=True)
        ]
        cell_class, class_plus_one = _value_classes(bets, tableau)
        _ROUND_TERMS[key] = _compile_terms(
            factors, terms.term_index, cell_class[terms.cell_index], terms.count, class_plus_one
        )
    return _ROUND_TERMS[key]


def _value_classes(
    bets: list[Bet], tableau: Tableau = STANDARD_TABLEAU
) -> tuple[np.ndarray, np.ndarray]:
    """The outcome class of each cell of the value walk (one per distinct vector of the
    bets' payouts, numbered as first met; -1 where every bet loses), and each class's
    ``net + 1`` per bet. In integer codes, not Fractions: thousands of bets (6,500 took
    108 s and 2.1 GB) are one array of codes, cells by bets, and one ``unique``."""
    cells = cell_columns(tableau)
    n_cells = len(cells["player_score"])
    codes = np.empty((n_cells, len(bets)), dtype=np.int32)
    plus_one = []  # per bet: net + 1 of each of its codes
    for b, bet in enumerate(bets):
        nets = Settlement(bet).nets()
        distinct = sorted(set(nets))
        code_of_rule = np.array([distinct.index(net) for net in nets], dtype=np.int32)
        codes[:, b] = code_of_rule[settling_rule(bet, cells, n_cells)]
        plus_one.append(np.array([float(net + 1) for net in distinct]))
    # net + 1 is 0 for a lost stake: a cell where every bet loses adds nothing.
    loses = np.array([values[codes[:, b]] == 0 for b, values in enumerate(plus_one)]).all(axis=0)
    kept = np.nonzero(~loses)[0]
    vectors, first, inverse = unique_rows(codes[kept])
    order = np.argsort(first, kind="stable")  # numbered as first met, cell by cell
    number = np.empty(len(order), dtype=np.int64)
    number[order] = np.arange(len(order))
    cell_class = np.full(n_cells, -1, dtype=np.int64)
    cell_class[kept] = number[inverse.reshape(-1)]
    class_plus_one = np.column_stack(
        [values[vectors[order, b]] for b, values in enumerate(plus_one)]
    ).reshape(len(order), len(bets))
    return cell_class, class_plus_one


def _value_counts(values: np.ndarray) -> np.ndarray:
    """The count vectors of value-level terms: cards of each point value, then all."""
    return np.column_stack([values, values.sum(axis=1)]).astype(np.float64)


def _card_classifier(bets: list[Bet], index: dict[tuple, int]) -> Callable:
    """The outcome classes of bets on the cards, for :func:`card_terms`: one per distinct
    vector of the bets' exact ``net + 1``, numbered in ``index`` (-1: every bet loses)."""
    nets = [Settlement(bet).nets() for bet in bets]

    def classify(columns: dict[str, np.ndarray]) -> np.ndarray:
        n_rows = len(next(iter(columns.values())))
        rules = np.stack([settling_rule(bet, columns, n_rows) for bet in bets], axis=1)
        distinct, _, class_of_row = unique_rows(rules)
        rows = [
            tuple(bet_nets[r] + 1 for bet_nets, r in zip(nets, row, strict=True))
            for row in distinct.tolist()
        ]
        return _class_of(rows, index)[class_of_row.reshape(-1)]

    return classify


def compiles_to_terms(
    fields: frozenset[str], literals: Mapping[str, frozenset[str]] | None = None
) -> bool:
    """Is the walk of ``fields`` short enough to compile into terms (at most 10^8
    rounds; the terms may still prove too many to hold)?"""
    return walk_visits(fields, literals) <= _MAX_TERM_VISITS


def exact_card_expected_values(
    bets: list[Bet],
    compositions: np.ndarray,
    fields: frozenset[str] | None = None,
    literals: Mapping[str, frozenset[str]] | None = None,
    rules: DrawingRules | None = None,
    strategy: Strategy | None = None,
) -> list[list[Fraction]] | None:
    """Exact EV per unit of each bet on the cards, on each composition (rows of counts:
    (n, 52) by card, or (n, 13) by rank where the bets need no suits), for bets that ask
    the same of the cards (one plan): the walk compiled into terms once and evaluated in
    integers, so that many shoes a card apart (effects of removal) are priced without a
    walk each. ``fields`` and ``literals``: a walk the bets share (default: the first
    bet's). None where compiling costs more than walking (more than 10^8 rounds), the
    terms are too many to hold, or there is no composition. Under ``rules`` and a mixed
    ``strategy``, the exact weighted sum over the tableaus of the mixture."""
    if fields is None:  # the bets' own walk; else one they share, telling more apart
        fields, literals = bets[0].fields, bets[0].literals
    if not len(compositions) or not compiles_to_terms(fields, literals):
        return None
    total: list[list[Fraction]] | None = None
    for weight, tableau in (STANDARD if rules is None else rules).mixture(strategy):
        part = _exact_card_expected_values(bets, compositions, fields, literals, tableau)
        if part is None:
            return None
        if total is None:
            total = [[weight * ev for ev in row] for row in part]
        else:
            total = [
                [t + weight * ev for t, ev in zip(old, row, strict=True)]
                for old, row in zip(total, part, strict=True)
            ]
    return total


#: Card walks compiled into exact terms, kept per walk, tableau and list of settlements
#: like the batch engine's: what is compiled of immutable bets stays true (the effects of
#: removal of a paytable on many shoes compile its walks once).
#: At most 16 kept, each of at most _KEPT_ENTRIES (term, class) entries (about 30 MB):
#: larger terms are used once, not kept.
_EXACT_TERMS: Kept[tuple[CardTerms, list[tuple]] | tuple[()]] = Kept(16)
_KEPT_ENTRIES = 10**6


def _exact_card_terms(
    bets: list[Bet],
    fields: frozenset[str],
    literals: Mapping[str, frozenset[str]] | None,
    tableau: Tableau,
) -> tuple[CardTerms, list[tuple]] | None:
    """The walk of ``fields`` compiled into terms classed by the bets' exact ``net + 1``
    vectors, and those vectors by class (numbered as first met); None where the terms
    are too many to hold."""
    walk = plan(frozenset(fields), literals, suit_sums=False).key
    key = (walk, tableau.key, *(bet.settlement for bet in bets))
    kept = _EXACT_TERMS.get(key)
    if kept is None:
        index: dict[tuple, int] = {}
        terms = card_terms(fields, literals, _card_classifier(bets, index), tableau)
        kept = () if terms is None else (terms, list(index))
        if terms is None or len(terms.term_index) <= _KEPT_ENTRIES:
            _EXACT_TERMS.put(key, kept)
    return kept or None


def _exact_card_expected_values(
    bets: list[Bet],
    compositions: np.ndarray,
    fields: frozenset[str],
    literals: Mapping[str, frozenset[str]] | None,
    tableau: Tableau,
) -> list[list[Fraction]] | None:
    compiled = _exact_card_terms(bets, fields, literals, tableau)
    if compiled is None:
        return None
    terms, plus_one = compiled
    # Every class the bets' payouts were numbered in (some no round of the reference
    # shoe deals: a condition that never holds beside one that does).
    ways = terms.class_ways(compositions, len(plus_one))
    # Per bet, the ways of each of its few payouts summed in integers, priced as one
    # integer numerator per composition over the payouts' common denominator.
    sequences = [
        prod(range(size - ROUND_CARDS + 1, size + 1))
        for size in np.asarray(compositions).reshape(len(ways), -1).sum(axis=1).tolist()
    ]
    columns = []
    for b, bet in enumerate(bets):
        payouts = sorted({vector[b] for vector in plus_one})
        code = np.array([payouts.index(vector[b]) for vector in plus_one], dtype=np.int64)
        summed = np.zeros((len(ways), len(payouts)), dtype=np.int64)
        for c in range(len(plus_one)):
            summed[:, code[c]] += ways[:, c]
        denominator = lcm(*(Fraction(p).denominator for p in payouts))
        numerators = [int(p * denominator) for p in payouts]
        settlement = Settlement(bet)
        columns.append(
            [
                settlement.per_paid(
                    Fraction(
                        sum(w * p for w, p in zip(row, numerators, strict=True))
                        - denominator * n_sequences,
                        denominator * n_sequences,
                    )
                )
                for row, n_sequences in zip(summed.tolist(), sequences, strict=True)
            ]
        )
    return [list(row) for row in zip(*columns, strict=True)]


def _compile_card_bets(
    bets: list[Bet], tableau: Tableau = STANDARD_TABLEAU
) -> _CompiledTerms | None:
    index: dict[tuple, int] = {}
    terms = card_terms(bets[0].fields, bets[0].literals, _card_classifier(bets, index), tableau)
    if terms is None:
        return None
    whole = _whole_values(terms)
    factors = []
    for t in range(len(terms.slot)):
        powers: dict[tuple[int, int], int] = {}
        for s, o, p in zip(terms.slot[t], terms.offset[t], terms.power[t], strict=True):
            if s < 0 or p == 0:  # a factor of power 0 is 1
                continue
            # ff(n_t, k) ff(n_v - k, m) = ff(n_t, k + m) where type t is the whole of
            # value v (a rank alone in its value, A-9): one factor, so terms that
            # differ only in which of those cards were dealt by value merge.
            key = (int(whole[s]), 0) if s in whole else (int(s), int(o))
            powers[key] = powers.get(key, 0) + int(p)
        # The coarsest first (the number of cards, then point values, then fine types),
        # so that neighbouring terms share the longest prefixes.
        factors.append(tuple(sorted(((s, o, p) for (s, o), p in powers.items()), reverse=True)))
    return _compile_terms(
        factors,
        terms.term_index,
        terms.cell_class,
        terms.count,
        _class_table(index, len(bets)),
        terms,
    )


def _whole_values(terms: CardTerms) -> dict[int, int]:
    """Value slots whose cards are exactly one fine type's: value slot -> type slot."""
    kinds = len(terms.members)
    per_kind = N_SUITS if kinds == N_CARDS else 1
    value_of_kind = np.repeat(np.asarray(RANK_VALUES), per_kind)
    whole = {}
    for v in range(N_VALUES):
        types = set(terms.members[value_of_kind == v].tolist())
        if len(types) == 1:
            (t,) = types
            if set(value_of_kind[terms.members == t].tolist()) == {v}:
                whole[terms.n_types + v] = t
    return whole


#: The most rounds the card walk may visit to compile terms whatever the number of
#: compositions (a few seconds, once).
_MAX_TERM_VISITS = 10**8
#: The most it may visit to compile terms where more than COMPILING compositions pay for
#: them (compiling costs about COMPILING walks: well under a minute, once, where walking
#: each composition takes seconds each; 1.2e8 rounds compiled in 15-30 s here). Past it a
#: count walks each round, which its budget refuses for any shoe's rounds (1.5e10).
_MAX_COMPILED_VISITS = 2 * 10**8
#: Below this many compositions the exact walk of each is cheaper than compiling terms.
_MIN_TERM_COMPOSITIONS = 4


def _compiles(visits: int, n_compositions: int) -> bool:
    """Are bets on the cards whose walk compiles in ``visits`` rounds priced on
    ``n_compositions`` compositions from terms (else each composition is walked)?"""
    if n_compositions < _MIN_TERM_COMPOSITIONS:
        return False
    return visits <= _MAX_TERM_VISITS or (
        visits <= _MAX_COMPILED_VISITS and n_compositions > COMPILING
    )


def _card_terms(
    bets: list[Bet], n_compositions: int, tableau: Tableau = STANDARD_TABLEAU
) -> _CompiledTerms | None:
    """Compiled terms of bets that ask the same of the cards (one plan), kept per tableau
    and list of settlements like value bets'; None where the exact walk of each
    composition is the better way (or the only one: terms too many to hold)."""
    key = ("card", tableau.key, *(bet.settlement for bet in bets))
    if key not in _COMPILED:
        if not _compiles(walk_visits(bets[0].fields, bets[0].literals), n_compositions):
            return None
        _COMPILED[key] = _compile_card_bets(bets, tableau)
    return _COMPILED[key]


def _check_walked(bets: list[Bet], n_compositions: int) -> None:
    """Refuse, in one line and before any is walked, walking each of many compositions
    for bets on the cards whose terms proved too many to hold (the one case a command's
    weighing up front, :func:`walked_per_composition`, counts as compiled)."""
    walked = walk_visits(bets[0].fields, bets[0].literals, bets[0].relational)
    if n_compositions >= _MIN_TERM_COMPOSITIONS and n_compositions * walked > MAX_COMMAND_VISITS:
        ids = ", ".join(dict.fromkeys(bet.id for bet in bets))
        raise AnalyzerError(
            f"bet {ids} on the cards: its terms are too many to hold, and walking each of "
            f"{n_compositions:,} compositions would visit about {n_compositions * walked:,} "
            f"rounds (at most {MAX_COMMAND_VISITS:,}): price fewer compositions at once, or "
            "fewer bets on the cards"
        )


def walked_per_composition(bets: list[Bet]) -> int:
    """Rounds of cards the batch engine walks exactly for each composition it is given,
    for these bets: 0 where every bet on the cards compiles into terms, else the visits of
    the walks too long to compile (each composition is then walked on its own), and an
    identity walk's worth where a bet is multiplied by more than a hand's first two cards
    (walked for each composition). For a command to weigh its work up front (a walk that
    compiles where many compositions pay for it is counted as compiled: no more than
    walking a few)."""
    identities = any(pricing(bet).kind is not None for bet in bets)
    return identities * IDENTITY_WALK_COST + sum(
        walked for compiling, walked in _card_walk_visits(bets) if compiling > _MAX_COMPILED_VISITS
    )


def compiled_per_process(bets: list[Bet]) -> int:
    """Rounds of cards the batch engine walks once per process to compile these bets on
    the cards into terms (each walk of at most 2 * 10^8 rounds), for the same weighing."""
    return sum(
        compiling for compiling, _ in _card_walk_visits(bets) if compiling <= _MAX_COMPILED_VISITS
    )


def _card_walk_visits(bets: list[Bet]) -> list[tuple[int, int]]:
    """The visits of each distinct walk of the bets on the cards, on the reference shoe
    terms are compiled on (pairs joined with the result fall back to the pair enumerator,
    milliseconds, and are not counted): compiling it into terms (suits as they are), and
    walking it exactly (suits compared only with each other by pattern)."""
    walks = {walk_key(bet): bet for bet in bets if bet.card_level}
    return [
        (
            walk_visits(bet.fields, bet.literals),
            walk_visits(bet.fields, bet.literals, bet.relational),
        )
        for bet in walks.values()
    ]


def _card_expected_values(compiled: _CompiledTerms, compositions: np.ndarray) -> np.ndarray:
    """EV per unit of each compiled card bet on each (validated) composition, (n, bets)."""
    return compiled.expected_values(compiled.card_terms.term_counts(compositions))


@njit(cache=True)
def _ff(n, k):
    """The falling factorial n (n - 1) ... (n - k + 1), as a float (1 when k is 0)."""
    out = 1.0
    for j in range(k):
        out *= n - j
    return out


@njit(cache=True)
def _pair_states_jit(type_counts, type_ranks, out):
    """Probability of each pair of pair states of the first four cards, per composition.

    Closed forms by inclusion-exclusion (see :func:`pair_state_probabilities`).

    Parameters
    ----------
    type_counts : int64[n, n_types]
        Cards of each type (a rank, or a rank and suit) in each composition.
    type_ranks : int64[n_types]
        Rank index 0-12 of each type.
    out : float64[n, 3, 3]
        On return ``out[i, player_state, banker_state]`` (NO_PAIR, RANK_PAIR,
        SUITED_PAIR) sums to 1 over the states of each composition.
    """
    n_types = type_counts.shape[1]
    ranks = np.zeros(N_RANKS)
    for i in range(type_counts.shape[0]):
        ranks[:] = 0.0
        total = 0.0
        s_type = 0.0
        sq_type = 0.0
        four_type = 0.0
        for t in range(n_types):
            n = float(type_counts[i, t])
            ranks[type_ranks[t]] += n
            total += n
            pair = _ff(n, 2)
            s_type += pair
            sq_type += pair * pair
            four_type += _ff(n, 4)
        s_rank = 0.0
        sq_rank = 0.0
        four_rank = 0.0
        for r in range(N_RANKS):
            pair = _ff(ranks[r], 2)
            s_rank += pair
            sq_rank += pair * pair
            four_rank += _ff(ranks[r], 4)
        rank_type = 0.0
        for t in range(n_types):
            own = ranks[type_ranks[t]]
            rank_type += _ff(float(type_counts[i, t]), 2) * (s_rank - _ff(own, 2) + _ff(own - 2, 2))
        both_type = s_type * s_type - sq_type + four_type
        both_rank = s_rank * s_rank - sq_rank + four_rank
        rest2 = _ff(total - 2, 2)
        c = out[i]
        c[SUITED_PAIR, SUITED_PAIR] = both_type
        c[SUITED_PAIR, RANK_PAIR] = rank_type - both_type
        c[RANK_PAIR, SUITED_PAIR] = rank_type - both_type
        c[RANK_PAIR, RANK_PAIR] = both_rank - 2 * rank_type + both_type
        for state in (SUITED_PAIR, RANK_PAIR):
            marginal = (s_type if state == SUITED_PAIR else s_rank - s_type) * rest2
            c[state, NO_PAIR] = marginal - c[state, RANK_PAIR] - c[state, SUITED_PAIR]
            c[NO_PAIR, state] = marginal - c[RANK_PAIR, state] - c[SUITED_PAIR, state]
        everything = _ff(total, 4)
        c[NO_PAIR, NO_PAIR] = 0.0
        rest = 0.0
        for a in range(N_PAIR_STATES):
            for b in range(N_PAIR_STATES):
                rest += c[a, b]
        c[NO_PAIR, NO_PAIR] = everything - rest
        for a in range(N_PAIR_STATES):
            for b in range(N_PAIR_STATES):
                c[a, b] /= everything


def pair_state_probabilities(type_counts: np.ndarray, type_ranks: np.ndarray) -> np.ndarray:
    """P(player pair state, banker pair state) of the first four cards, (n, 3, 3).

    Closed forms by inclusion-exclusion over ordered draws without replacement (P1, B1, P2,
    B2); a "type" is a card (rank and suit) or, when suits are unknown, a rank. Pairs of
    one kind in both hands multiply when their types (ranks) differ and need four cards of
    one type (rank) when they are the same; a Player rank pair beside a Banker pair of type
    ``u`` leaves ``u``'s rank two cards short.
    """
    out = np.empty((len(type_counts), N_PAIR_STATES, N_PAIR_STATES))
    _pair_states_jit(
        np.ascontiguousarray(type_counts, dtype=np.int64),
        np.asarray(type_ranks, dtype=np.int64),
        out,
    )
    return out


@njit(cache=True)
def _pair_state_sums_jit(type_counts, type_ranks, n_rounds, window, out):
    """``out[s, w]``: :func:`_pair_states_jit`'s chances summed over shoe ``s``'s rounds
    ``j < n_rounds[s]`` (compositions ``type_counts[s, j]``) in window ``window[j]``."""
    states = np.empty((type_counts.shape[1], out.shape[2], out.shape[3]))
    for s in range(type_counts.shape[0]):
        n = n_rounds[s]
        _pair_states_jit(type_counts[s, :n], type_ranks, states[:n])
        for j in range(n):
            out[s, window[j]] += states[j]


def pair_state_sums(
    type_counts: np.ndarray,
    type_ranks: np.ndarray,
    n_rounds: np.ndarray,
    window: np.ndarray,
    n_windows: int,
) -> np.ndarray:
    """:func:`pair_state_probabilities` of the rounds of many shoes, summed per shoe over
    the rounds of each window: (shoes, n_windows, 3, 3).

    ``type_counts``: (shoes, rounds, n_types) int64, the composition as each round
    starts (rows from ``n_rounds[s]`` on are not read); ``window``: each round's window
    (``0`` to ``n_windows - 1``). The caller checks the shapes (the package's own runs:
    :func:`analyzer.engine.round_sums.shoe_window_sums`).
    """
    out = np.zeros((len(type_counts), n_windows, N_PAIR_STATES, N_PAIR_STATES))
    _pair_state_sums_jit(
        np.ascontiguousarray(type_counts, dtype=np.int64),
        np.asarray(type_ranks, dtype=np.int64),
        np.ascontiguousarray(n_rounds, dtype=np.int64),
        np.ascontiguousarray(window, dtype=np.int64),
        out,
    )
    return out


def pair_state_nets(bet: Bet) -> np.ndarray:
    """Net of a pairs-only bet in each of the 9 pair states."""
    player, banker = np.divmod(np.arange(N_PAIR_STATES**2), N_PAIR_STATES)
    columns = pair_columns(player, banker)
    nets = np.array([float(net) for net in Settlement(bet).nets()])
    return nets[settling_rule(bet, columns, N_PAIR_STATES**2)]


def _validate(compositions: object) -> tuple[np.ndarray, bool]:
    """Counts checked as given, before anything becomes int64 (nothing can wrap)."""
    array = counts_as_given(compositions, "compositions")
    if array.dtype == object and array.ndim == 1 and any(isinstance(r, list) for r in array):
        raise AnalyzerError(
            "compositions must be an (n, 13) or (n, 52) array of counts: rows differ in length"
        )
    if array.ndim != 2 or array.shape[1] not in (N_RANKS, N_CARDS) or not len(array):
        raise AnalyzerError(
            "compositions must be an (n, 13) or (n, 52) array of counts with n >= 1, "
            f"got shape {array.shape}"
        )
    per_card = array.shape[1] == N_CARDS
    array = whole_counts(
        array, "compositions", lambda i: f"row {i[0]}, {count_name(i[1], per_card)}"
    )
    sizes = array.sum(axis=1)  # at most 52 * MAX_CARDS: no overflow
    for bad, why in (
        (sizes < ROUND_CARDS, f"fewer than {ROUND_CARDS} cards"),
        (sizes > MAX_CARDS, f"more than {MAX_CARDS:,} cards"),
    ):
        if bad.any():
            raise AnalyzerError(f"impossible shoe in row {int(np.nonzero(bad)[0][0])}: {why}")
    return array, per_card


def batch_expected_values(
    paytable: Paytable | str | os.PathLike[str], compositions, modes: tuple[str, ...] | None = None
) -> pd.DataFrame:
    """EV per unit of every (bet, mode) of ``paytable`` on each composition (row).

    ``compositions``: (n, 13) counts per rank (A..K) or (n, 52) per rank and suit (rank
    major: AS AH AD AC 2S ...). Columns are a (bet, mode) MultiIndex; a bet on suited pairs
    is NaN for per-rank compositions (suits unknown). ``paytable`` is a paytable, a shipped
    paytable's name or a ``.toml`` file.
    """
    paytable = as_paytable(paytable)
    paytable.require_punto_banco("batch_expected_values()")
    paytable.require_played_as_dealt("batch_expected_values()")
    array, per_suit = _validate(compositions)
    if modes is None:
        modes = paytable.modes
    elif (
        isinstance(modes, str)
        or not isinstance(modes, (tuple, list))
        or not all(isinstance(m, str) for m in modes)
    ):
        raise AnalyzerError(f"modes must be a tuple of mode names, got {modes!r:.60}")
    else:
        modes = tuple(modes)
        paytable.check_modes(modes)
    offered = list(paytable.offered(modes))
    out = _offered_expected_values(offered, array, per_suit, paytable.rules, paytable.strategy)
    index = pd.MultiIndex.from_tuples(
        [(bet.id, mode) for bet, mode in offered], names=["bet", "mode"]
    )
    return pd.DataFrame(out, columns=index)


def dealt_expected_values(
    bets: list[Bet],
    compositions: np.ndarray,
    rules: DrawingRules | None = None,
    strategy: Strategy | None = None,
) -> np.ndarray:
    """EV per unit of each of ``bets`` on each composition of dealt shoes, (n, bets).

    For the package's own runs, whose compositions come from the dealer: (n, 52) int64
    counts per card, or (n, 13) per rank for a shoe whose suits are unknown (a bet on
    suits is NaN there), each row a real shoe with at least a round's cards. They are not
    checked again (:func:`batch_expected_values` checks what a user gives).
    """
    if compositions.dtype != np.int64 or compositions.shape[1:] not in ((N_CARDS,), (N_RANKS,)):
        raise ValueError(
            f"dealt compositions are (n, 52) or (n, 13) int64, got {compositions.shape}"
        )
    offered = [(bet, "") for bet in bets]
    per_suit = compositions.shape[1] == N_CARDS
    return _offered_expected_values(offered, compositions, per_suit, rules, strategy)


def _offered_expected_values(
    offered: list[tuple[Bet, str]],
    array: np.ndarray,
    per_suit: bool,
    rules: DrawingRules | None = None,
    strategy: Strategy | None = None,
) -> np.ndarray:
    """EV per unit of each offered (bet, mode) on each validated composition, (n, bets):
    under a mixed strategy, the weighted sum over the tableaus of its mixture."""
    mixture = (STANDARD if rules is None else rules).mixture(strategy)
    if len(mixture) == 1:
        return _tableau_expected_values(offered, array, per_suit, mixture[0][1])
    return sum(
        float(weight) * _tableau_expected_values(offered, array, per_suit, tableau)
        for weight, tableau in mixture
    )


def _tableau_expected_values(
    offered: list[tuple[Bet, str]], array: np.ndarray, per_suit: bool, tableau: Tableau
) -> np.ndarray:
    """EV per unit paid of each offered (bet, mode) on each validated composition,
    (n, bets), under one pure tableau: each bet by the engine its pricing names
    (:mod:`analyzer.engine.pricing`)."""
    pure = ((Fraction(1), tableau),)
    ranks = array.reshape(len(array), N_RANKS, -1).sum(axis=2)
    values = np.zeros((len(array), N_VALUES), dtype=np.int64)
    for r in range(N_RANKS):
        values[:, RANK_VALUES[r]] += ranks[:, r]
    out = np.full((len(array), len(offered)), np.nan)
    plans = [pricing(bet) for bet, _ in offered]
    # NaN where the shoe cannot tell: suits unknown for a bet that needs them.
    priced = [i for i, p in enumerate(plans) if not p.unavailable(per_suit)]

    value_bets = [i for i in priced if plans[i].engine == "values"]
    if value_bets:
        distinct = list({offered[i][0].settlement: offered[i][0] for i in value_bets}.values())
        compiled = _compiled_value_bets(distinct, tableau)
        result = compiled.expected_values(_value_counts(values))
        column = {bet.settlement: b for b, bet in enumerate(distinct)}
        for i in value_bets:
            out[:, i] = result[:, column[offered[i][0].settlement]]

    pair_bets = [i for i in priced if plans[i].engine == "pairs"]
    if pair_bets:
        if per_suit:
            probabilities = pair_state_probabilities(array, CARD_RANKS)
        else:
            probabilities = pair_state_probabilities(ranks, np.arange(N_RANKS))
            # With ranks as types, "same type" is "same rank": fold, suits unknown.
            fold_suited_pairs(probabilities)
        flat = probabilities.reshape(len(array), -1)
        for i in pair_bets:
            out[:, i] = flat @ pair_state_nets(offered[i][0])

    # Bets on single cards, and pairs joined with the result, from the card walk's terms
    # where compiling them pays; the rest exactly, one composition at a time.
    walked = [i for i in priced if plans[i].engine in ("cards", "round")]
    groups: dict[tuple, list[int]] = {}
    for i in walked:
        groups.setdefault(walk_key(offered[i][0]), []).append(i)
    for members in groups.values():
        bets = [offered[i][0] for i in members]
        distinct = list({bet.settlement: bet for bet in bets}.values())
        compiled = _card_terms(distinct, len(array), tableau)
        if compiled is None:
            if bets[0].card_level:  # (bets on the round: each composition's pair table)
                _check_walked(bets, len(array))
        else:
            result = _card_expected_values(compiled, array)
            column = {bet.settlement: b for b, bet in enumerate(distinct)}
            for i in members:
                out[:, i] = result[:, column[offered[i][0].settlement]]
    for i in value_bets + pair_bets + walked:  # so far per unit staked, before any fee
        if not np.isnan(out[:, i]).all():
            out[:, i] = Settlement(offered[i][0]).per_paid(out[:, i])
    exact = [i for i in priced if np.isnan(out[:, i]).all()]
    if exact:
        bets = [(offered[i][0], plans[i]) for i in exact]
        _exact_expected_values(bets, array, per_suit, ranks, pure, out, exact)
    return out


def _exact_expected_values(
    bets: list[tuple[Bet, Pricing]],
    array: np.ndarray,
    per_suit: bool,
    ranks: np.ndarray,
    pure,
    out: np.ndarray,
    columns: list[int],
) -> None:
    """Exact EVs per unit paid, one composition at a time, into ``out[:, columns]``:
    bets on the round on the pair enumerator's table, bets on single cards on the card
    walk's, multiplied bets on the identity walk's (all kinds in one walk)."""
    plans = [how for _, how in bets]
    round_bets = [
        how for how in plans if how.engine in ("round", "identities") and how.kind is None
    ]
    detail = table_detail(round_bets, per_suit)
    kinds = tuple(dict.fromkeys(how.kind for how in plans if how.kind is not None))
    for row in range(len(array)):
        shoe = Shoe(ranks[row], array[row].reshape(N_RANKS, N_SUITS) if per_suit else None)
        table = outcome_table(mixture_outcomes(shoe, detail, pure)) if round_bets else None
        walked = identity_outcomes_of(shoe, kinds, pure) if kinds else {}
        by_kind = identity_tables(walked)
        card_tables = {}
        for (bet, how), i in zip(bets, columns, strict=True):
            if how.engine == "cards":
                if how.walk not in card_tables:
                    card_tables[how.walk] = CardWalk(
                        shoe, bet.fields, bet.literals, bet.relational, pure
                    ).table()
                bet_table = card_tables[how.walk]
            elif how.kind is not None:
                bet_table = by_kind[how.kind]
            else:
                bet_table = table
            ev = Settlement(bet).expected_value(
                bet_table.columns, bet_table.multiplied_ways, bet_table.denominator
            )
            out[row, i] = float(ev)
