"""The batch engine: every bet of a paytable on many shoe compositions at once (floats).

Value-level bets use the compiled walk (:mod:`analyzer.engine.terms`): per composition, each of
the 6,958 terms' weights is a product of a few falling factorials, and each bet's expected
value is a sparse dot product with its coefficients. Coefficients are of ``net + 1`` (zero
on a loss), which makes them sparse for side bets; ``- 1`` restores the EV because the
weights of all terms sum to the denominator. Compositions are processed in blocks so the
inner loops run over contiguous arrays and vectorise.

Bets on pairs alone use closed forms of the joint distribution of the two hands' pair
states. Bets on single cards, and pairs joined with the result, use the card walk compiled
the same way (:func:`analyzer.engine.card_walk.card_terms`): terms over the card types the
bet tells apart, each a product of at most seven falling factorials. Compiling takes up to
a few seconds, once per process; where it would take longer, or for a handful of
compositions, each composition is walked exactly instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba import njit

from analyzer.engine.card_walk import (
    CardTerms,
    card_outcome_table,
    card_terms,
    plan,
    walk_visits,
)
from analyzer.engine.enumerator import count_outcomes
from analyzer.engine.outcomes import outcome_table
from analyzer.engine.terms import is_value_level, term_coefficients, walk_terms
from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_RANKS, N_SUITS, N_VALUES, RANK_VALUES
from analyzer.game.fields import (
    N_PAIR_STATES,
    NO_PAIR,
    RANK_PAIR,
    SUITED_PAIR,
    SUITED_PAIR_FIELDS,
    fold_suited_pairs,
    pair_columns,
    pair_detail_needed,
)
from analyzer.game.shoe import MAX_CARDS, ROUND_CARDS, Shoe
from analyzer.paytables.model import Bet, Paytable
from analyzer.paytables.settle import expected_value, rule_nets, settling_rule

_BLOCK = 128
_PAIR_ONLY_FIELDS = {"player_pair", "banker_pair", *SUITED_PAIR_FIELDS}


@njit(cache=True, fastmath=True, inline="always")
def _add_term(acc, weight, size, first, last, row_bet, row_coef):
    """Add a term's weight, times each of its coefficients (CSR rows first to last), into
    the bets of the block."""
    for r in range(first, last):
        b = row_bet[r]
        c = row_coef[r]
        for i in range(size):
            acc[b, i] += c * weight[i]


@njit(cache=True, fastmath=True, inline="always")
def _block_out(acc, denominator, size, start, out):
    """EV of a block's compositions from its sums of net + 1 (see the module docstring)."""
    for b in range(out.shape[1]):
        for i in range(size):
            out[start + i, b] = acc[b, i] / denominator[i] - 1.0


# fastmath lets LLVM fuse multiply-adds across the block loops; every loop is elementwise
# over compositions, so no sum is reordered (measured error stays ~1e-15).
@njit(cache=True, fastmath=True)
def _value_ev_jit(
    value_counts, term_values, term_powers, term_used, row_start, row_bet, row_coef, out
):
    """Expected value of every value-level bet on every composition, from the terms.

    Compositions are taken in blocks of ``_BLOCK``; per block the falling factorials of
    each value count are tabled once, then every term's weight is a product of a few of
    them, added into each bet with a nonzero coefficient.

    Parameters
    ----------
    value_counts : int64[n, 10]
        Cards of each point value in each composition.
    term_values, term_powers : int64[K, 6]
        Per term, the point values it uses and how many cards of each (padded with -1
        and 0).
    term_used : int64[K]
        Cards each term uses in all (4 to 6).
    row_start : int64[K + 1]
        Where each term's coefficients start in ``row_bet``/``row_coef`` (CSR by term).
    row_bet : int64[nnz]
        The bet (column of ``out``) of each nonzero coefficient.
    row_coef : float64[nnz]
        The coefficient of ``net + 1`` (zero on a loss).
    out : float64[n, n_bets]
        On return ``out[i, b]``: the EV per unit of bet ``b`` on composition ``i``.
    """
    n_comps = value_counts.shape[0]
    n_bets = out.shape[1]
    n_terms = term_used.shape[0]
    ff = np.empty((N_VALUES, ROUND_CARDS + 1, _BLOCK))
    tail = np.empty((ROUND_CARDS + 1, _BLOCK))
    denominator = np.empty(_BLOCK)
    weight = np.empty(_BLOCK)
    acc = np.empty((n_bets, _BLOCK))
    for start in range(0, n_comps, _BLOCK):
        size = min(_BLOCK, n_comps - start)
        for i in range(size):
            total = 0.0
            for v in range(N_VALUES):
                n = float(value_counts[start + i, v])
                total += n
                ff[v, 0, i] = 1.0
                for j in range(1, ROUND_CARDS + 1):
                    ff[v, j, i] = ff[v, j - 1, i] * (n - j + 1)
            for used in range(4, ROUND_CARDS + 1):
                t = 1.0
                for j in range(ROUND_CARDS - used):
                    t *= total - used - j
                tail[used, i] = t
            d = 1.0
            for j in range(ROUND_CARDS):
                d *= total - j
            denominator[i] = d
        acc[:, :size] = 0.0
        for t in range(n_terms):
            used = term_used[t]
            for i in range(size):
                weight[i] = tail[used, i]
            for p in range(ROUND_CARDS):
                v = term_values[t, p]
                if v < 0:
                    break
                power = term_powers[t, p]
                for i in range(size):
                    weight[i] *= ff[v, power, i]
            _add_term(acc, weight, size, row_start[t], row_start[t + 1], row_bet, row_coef)
        _block_out(acc, denominator, size, start, out)


@dataclass(frozen=True, eq=False)
class _CompiledValueBets:
    term_values: np.ndarray
    term_powers: np.ndarray
    term_used: np.ndarray
    row_start: np.ndarray
    row_bet: np.ndarray
    row_coef: np.ndarray


_COMPILED: dict[tuple, _CompiledValueBets | _CompiledCardBets | None] = {}


def _compiled_value_bets(bets: list[Bet]) -> _CompiledValueBets:
    """Compiled coefficients, kept per list of settlements: the same bets read again (in
    a worker, from a pickle) find them compiled."""
    key = tuple(bet.settlement for bet in bets)
    if key not in _COMPILED:
        _COMPILED[key] = _compile_value_bets(bets)
    return _COMPILED[key]


def _compile_value_bets(bets: list[Bet]) -> _CompiledValueBets:
    terms = walk_terms()
    n_terms = len(terms.k)
    values = np.full((n_terms, ROUND_CARDS), -1, dtype=np.int64)
    powers = np.zeros((n_terms, ROUND_CARDS), dtype=np.int64)
    for t, k in enumerate(terms.k):
        nonzero = np.nonzero(k)[0]
        values[t, : len(nonzero)] = nonzero
        powers[t, : len(nonzero)] = k[nonzero]
    # Coefficients of net + 1: the number of sequences of the term (sum over its cells)
    # plus the net coefficient.
    sequences = np.bincount(terms.term_index, weights=terms.count, minlength=n_terms)
    coef = np.zeros((n_terms, len(bets)))
    for b, bet in enumerate(bets):
        coef[:, b] = sequences + np.array([float(c) for c in term_coefficients(bet)])
    rows_t, rows_b = np.nonzero(coef)
    row_start = np.searchsorted(rows_t, np.arange(n_terms + 1))
    return _CompiledValueBets(
        values,
        powers,
        terms.used.astype(np.int64),
        row_start.astype(np.int64),
        rows_b.astype(np.int64),
        coef[rows_t, rows_b],
    )


@njit(cache=True, fastmath=True)
def _card_ev_jit(counts, slot, offset, power, row_start, row_bet, row_coef, out):
    """Expected value of every card-level bet of one plan on every composition, from the
    plan's terms (:class:`~analyzer.engine.card_walk.CardTerms`).

    Parameters
    ----------
    counts : float64[n, n_slots]
        Each composition's count vector (``CardTerms.term_counts``); the last slot is the
        number of cards.
    slot, offset, power : int64[K, MAX_FACTORS]
        Per term, its factors ``ff(counts[slot] - offset, power)``, slot -1 past the last.
    row_start, row_bet, row_coef :
        The coefficients of ``net + 1``, CSR by term (as in ``_value_ev_jit``).
    out : float64[n, n_bets]
        On return ``out[i, b]``: the EV per unit of bet ``b`` on composition ``i``.
    """
    n_comps, n_slots = counts.shape
    n_bets = out.shape[1]
    n_terms = slot.shape[0]
    block = np.empty((n_slots, _BLOCK))
    denominator = np.empty(_BLOCK)
    weight = np.empty(_BLOCK)
    acc = np.empty((n_bets, _BLOCK))
    for start in range(0, n_comps, _BLOCK):
        size = min(_BLOCK, n_comps - start)
        for i in range(size):
            for s in range(n_slots):
                block[s, i] = counts[start + i, s]
            d = 1.0
            for j in range(ROUND_CARDS):
                d *= block[n_slots - 1, i] - j
            denominator[i] = d
        acc[:, :size] = 0.0
        for t in range(n_terms):
            for i in range(size):
                weight[i] = 1.0
            for f in range(slot.shape[1]):
                s = slot[t, f]
                if s < 0:
                    break
                for j in range(power[t, f]):
                    less = offset[t, f] + j
                    for i in range(size):
                        weight[i] *= block[s, i] - less
            _add_term(acc, weight, size, row_start[t], row_start[t + 1], row_bet, row_coef)
        _block_out(acc, denominator, size, start, out)


@dataclass(frozen=True, eq=False)
class _CompiledCardBets:
    terms: CardTerms
    n_bets: int
    row_start: np.ndarray
    row_bet: np.ndarray
    row_coef: np.ndarray


def _compile_card_bets(bets: list[Bet]) -> _CompiledCardBets | None:
    nets = [rule_nets(bet) for bet in bets]
    class_nets: list[tuple] = []

    def classify(columns: dict[str, np.ndarray]) -> np.ndarray:
        n_rows = len(next(iter(columns.values())))
        rules = np.stack([settling_rule(bet, columns, n_rows) for bet in bets], axis=1)
        distinct, class_of_row = np.unique(rules, axis=0, return_inverse=True)
        classes = np.full(len(distinct), -1, dtype=np.int64)
        for c, row in enumerate(distinct.tolist()):
            row_nets = tuple(bet_nets[r] for bet_nets, r in zip(nets, row, strict=True))
            if any(net != -1 for net in row_nets):  # rounds every bet loses: left out
                classes[c] = len(class_nets)
                class_nets.append(row_nets)
        return classes[class_of_row.reshape(-1)]

    terms = card_terms(bets[0].fields, bets[0].literals, classify)
    if terms is None:
        return None
    # Coefficients of net + 1: exact integers times at most a few distinct payouts.
    plus_one = np.array([[float(net + 1) for net in row] for row in class_nets]).reshape(
        -1, len(bets)
    )
    n_terms = len(terms.slot)
    coef = np.zeros((n_terms, len(bets)))
    for b in range(len(bets)):
        weights = terms.count * plus_one[terms.cell_class, b]
        coef[:, b] = np.bincount(terms.term_index, weights=weights, minlength=n_terms)
    rows_t, rows_b = np.nonzero(coef)
    row_start = np.searchsorted(rows_t, np.arange(n_terms + 1))
    return _CompiledCardBets(
        terms, len(bets), row_start.astype(np.int64), rows_b.astype(np.int64), coef[rows_t, rows_b]
    )


#: The most rounds the card walk may visit to compile terms (a few seconds, once).
_MAX_TERM_VISITS = 10**8
#: Below this many compositions the exact walk of each is cheaper than compiling terms.
_MIN_TERM_COMPOSITIONS = 4


def _card_terms(bets: list[Bet], n_compositions: int) -> _CompiledCardBets | None:
    """Compiled terms of bets that ask the same of the cards (one plan), kept per list of
    settlements like value bets'; None where the exact walk of each composition is the
    better way (or the only one: terms too many to hold)."""
    key = ("card", *(bet.settlement for bet in bets))
    if key not in _COMPILED:
        if n_compositions < _MIN_TERM_COMPOSITIONS or (
            walk_visits(bets[0].fields, bets[0].literals) > _MAX_TERM_VISITS
        ):
            return None
        _COMPILED[key] = _compile_card_bets(bets)
    return _COMPILED[key]


def _card_expected_values(compiled: _CompiledCardBets, compositions: np.ndarray) -> np.ndarray:
    """EV per unit of each compiled bet on each (validated) composition, (n, bets)."""
    out = np.empty((len(compositions), compiled.n_bets))
    terms = compiled.terms
    _card_ev_jit(
        terms.term_counts(compositions),
        terms.slot,
        terms.offset,
        terms.power,
        compiled.row_start,
        compiled.row_bet,
        compiled.row_coef,
        out,
    )
    return out


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


def _pair_state_nets(bet: Bet) -> np.ndarray:
    """Net of a pairs-only bet in each of the 9 pair states."""
    player, banker = np.divmod(np.arange(N_PAIR_STATES**2), N_PAIR_STATES)
    columns = pair_columns(player, banker)
    nets = np.array([float(net) for net in rule_nets(bet)])
    return nets[settling_rule(bet, columns, N_PAIR_STATES**2)]


def _validate(compositions: object) -> tuple[np.ndarray, bool]:
    """Counts checked as given, before anything becomes int64 (nothing can wrap)."""
    # Lists are read as Python objects: numpy would turn a list holding 2**63 into floats,
    # silently rounding every count.
    array = (
        compositions
        if isinstance(compositions, np.ndarray)
        else np.array(compositions, dtype=object)
    )
    if array.dtype == object and array.ndim == 1 and any(isinstance(r, list) for r in array):
        raise AnalyzerError(
            "compositions must be an (n, 13) or (n, 52) array of counts: rows differ in length"
        )
    if array.ndim != 2 or array.shape[1] not in (N_RANKS, N_RANKS * N_SUITS) or not len(array):
        raise AnalyzerError(
            "compositions must be an (n, 13) or (n, 52) array of counts with n >= 1, "
            f"got shape {array.shape}"
        )
    kind = array.dtype.kind
    if kind == "O" and all(
        isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in array.flat
    ):
        kind = "i"  # Python integers, of any size: compared exactly below
    if kind not in "iu":
        raise AnalyzerError(f"compositions must hold whole numbers of cards, got {array.dtype}")
    for bad, why in (
        ((array < 0).any(axis=1), "a count is negative"),
        ((array > MAX_CARDS).any(axis=1), f"a count is more than {MAX_CARDS:,} cards"),
    ):
        if bad.any():
            raise AnalyzerError(f"impossible shoe in row {int(np.nonzero(bad)[0][0])}: {why}")
    array = array.astype(np.int64)
    sizes = array.sum(axis=1)  # at most 52 * MAX_CARDS: no overflow
    for bad, why in (
        (sizes < ROUND_CARDS, f"fewer than {ROUND_CARDS} cards"),
        (sizes > MAX_CARDS, f"more than {MAX_CARDS:,} cards"),
    ):
        if bad.any():
            raise AnalyzerError(f"impossible shoe in row {int(np.nonzero(bad)[0][0])}: {why}")
    return array, array.shape[1] == N_RANKS * N_SUITS


def batch_expected_values(
    paytable: Paytable, compositions, modes: tuple[str, ...] | None = None
) -> pd.DataFrame:
    """EV per unit of every (bet, mode) of ``paytable`` on each composition (row).

    ``compositions``: (n, 13) counts per rank (A..K) or (n, 52) per rank and suit (rank
    major: AS AH AD AC 2S ...). Columns are a (bet, mode) MultiIndex; a bet on suited pairs
    is NaN for per-rank compositions (suits unknown).
    """
    if not isinstance(paytable, Paytable):
        raise AnalyzerError(
            f"paytable must be a Paytable (see load_paytable), got {paytable!r:.60}"
        )
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
    ranks = array.reshape(len(array), N_RANKS, -1).sum(axis=2)
    values = np.zeros((len(array), N_VALUES), dtype=np.int64)
    for r in range(N_RANKS):
        values[:, RANK_VALUES[r]] += ranks[:, r]
    out = np.full((len(array), len(offered)), np.nan)

    value_bets = [i for i, (bet, _) in enumerate(offered) if is_value_level(bet)]
    if value_bets:
        distinct = list({offered[i][0].settlement: offered[i][0] for i in value_bets}.values())
        compiled = _compiled_value_bets(distinct)
        result = np.empty((len(array), len(distinct)))
        _value_ev_jit(
            values,
            compiled.term_values,
            compiled.term_powers,
            compiled.term_used,
            compiled.row_start,
            compiled.row_bet,
            compiled.row_coef,
            result,
        )
        column = {bet.settlement: b for b, bet in enumerate(distinct)}
        for i in value_bets:
            out[:, i] = result[:, column[offered[i][0].settlement]]

    pair_bets = [
        i
        for i, (bet, _) in enumerate(offered)
        if bet.fields <= _PAIR_ONLY_FIELDS and not is_value_level(bet)
    ]
    if pair_bets:
        if per_suit:
            probabilities = pair_state_probabilities(array, np.repeat(np.arange(N_RANKS), N_SUITS))
        else:
            probabilities = pair_state_probabilities(ranks, np.arange(N_RANKS))
            # With ranks as types, "same type" is "same rank": fold, suits unknown.
            fold_suited_pairs(probabilities)
        flat = probabilities.reshape(len(array), -1)
        for i in pair_bets:
            bet = offered[i][0]
            if per_suit or not (bet.fields & set(SUITED_PAIR_FIELDS)):
                out[:, i] = flat @ _pair_state_nets(bet)

    mixed = [i for i in range(len(offered)) if i not in value_bets and i not in pair_bets]
    # Bets on single cards, and pairs joined with the result, from the card walk's terms
    # where compiling them pays; the rest exactly, one composition at a time.
    groups: dict[tuple, list[int]] = {}
    for i in mixed:
        bet = offered[i][0]
        groups.setdefault((bet.fields, frozenset(bet.literals.items())), []).append(i)
    for members in groups.values():
        bets = [offered[i][0] for i in members]
        if plan(bets[0].fields, bets[0].literals).needs_suits and not per_suit:
            mixed = [i for i in mixed if i not in members]  # suits unknown: NaN
            continue
        distinct = list({bet.settlement: bet for bet in bets}.values())
        compiled = _card_terms(distinct, len(array))
        if compiled is not None:
            result = _card_expected_values(compiled, array)
            column = {bet.settlement: b for b, bet in enumerate(distinct)}
            for i in members:
                out[:, i] = result[:, column[offered[i][0].settlement]]
            mixed = [i for i in mixed if i not in members]
    if mixed:
        # Exact, one composition at a time: pairs joined with the result on the pair
        # enumerator's table, bets on single cards on the card-level walk's.
        round_fields = frozenset().union(
            *(offered[i][0].fields for i in mixed if not offered[i][0].card_level)
        )
        for row in range(len(array)):
            shoe = Shoe(ranks[row], array[row].reshape(N_RANKS, N_SUITS) if per_suit else None)
            detail = pair_detail_needed(round_fields)
            if detail == "suit" and not per_suit:
                detail = "rank"
            table = outcome_table(count_outcomes(shoe, detail)) if round_fields else None
            card_tables = {}
            for i in mixed:
                bet = offered[i][0]
                if bet.card_level:
                    key = (bet.fields, frozenset(bet.literals.items()))
                    if key not in card_tables:
                        card_tables[key] = card_outcome_table(shoe, bet.fields, bet.literals)
                    bet_table = card_tables[key]
                else:
                    bet_table = table
                if bet.fields <= bet_table.columns.keys():
                    ev = expected_value(
                        bet, bet_table.columns, bet_table.ways, bet_table.denominator
                    )
                    out[row, i] = float(ev)
    index = pd.MultiIndex.from_tuples(
        [(bet.id, mode) for bet, mode in offered], names=["bet", "mode"]
    )
    return pd.DataFrame(out, columns=index)
