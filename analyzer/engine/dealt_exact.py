"""The shoe as dealt, exactly: dynamic programming over the compositions by point value.

Whether a round is dealt (the burn by the first card's value, the cut card, the third-card
rules, the round's number) depends on the point values of the cards dealt, nothing else.
So the deal is followed over compositions by value (10 counts: 17 x 5**9 = 33.2 million
for one deck), not by rank (5**13 = 1.2 billion).

Counting. A *value order* is an ordering of the shoe's point values (cards of one value
alike): there are ``V = N! / prod_v full_v!`` of them, and each comes from the same number
of orders of the cards, so a chance is a count of value orders over ``V``. ``a_k(c)``
counts the value sequences dealt before round ``k`` starts at composition ``c`` (the
shown card, the burn, rounds 1 to ``k - 1``); a round dealing the values ``M`` (a
multiset of 4 to 6 values, one of the draw walk's 6,958 terms) in any of its ``W(M)``
valid orders leads to ``c - M``: ``a_{k+1}(c - M) += a_k(c) W(M)`` where the rule deals
another round. The weights are constants, so one pass over the compositions, from the
full shoe down (a round lowers the mixed-radix index), does it.

Pricing. Given the values dealt, the identities of the cards left (ranks within the value
0, suits) are exchangeable: the cards of value ``v`` left are a uniform subset of the full
shoe's. So the identities of a round's cards are uniform distinct draws from the full
shoe's cards of their values, whatever came before, and each bet's net summed over a
term's orders, identities averaged (:func:`term_nets`), is a constant ``NET(M)``. The
expected sum of a bet's round EVs is then ``sum_M G_k(M) NET(M) / V`` with
``G_k(M) = sum_c a_k(c) mult(c - M)`` (``mult(x)``: the arrangements of ``x``): value
orders in which round ``k`` deals ``M`` in one given order. ``G`` is a product of
falling factorials per value summed over ``c``, so it is computed axis by axis
(:func:`_moments_jit`), not per transition; the expected rounds dealt are
``sum_c a_k(c) mult(c) / V``.

Exactness. Every count is an integer below ``R V`` (``R``: the most rounds a shoe deals,
each order counted once per round): the passes run modulo primes below ``2**28`` (so a
product of two residues, and 8,000 products of a residue and a weight below ``2**10``,
fit in int64 before reduction), as many as make their product exceed ``R V``, and the
integers are rebuilt by the Chinese remainder theorem (:func:`crt`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import factorial, lcm, prod

import numpy as np
from numba import njit

from analyzer.errors import AnalyzerError
from analyzer.game.cards import CARD_RANKS, CARD_VALUES, N_CARDS, N_RANKS, N_VALUES, RANK_VALUES
from analyzer.game.fields import NO_PAIR, RANK_PAIR, SUITED_PAIR, pair_columns, pair_detail_needed
from analyzer.game.rules import Tableau
from analyzer.game.shoe import ROUND_CARDS
from analyzer.paytables.model import Bet

#: Residues are kept below this (see the module's text).
PRIME_LIMIT = 2**31
#: The most terms of a round (a multiset of 4 to 6 values) a transition count assumes.
_MAX_USED = 6


def primes_below(limit: int, count: int) -> list[int]:
    """The ``count`` largest primes below ``limit`` (trial division; ``limit`` <= 2**31).

    Examples
    --------
    >>> primes_below(30, 3)
    [29, 23, 19]
    """
    out: list[int] = []
    n = limit - 1
    while len(out) < count and n > 1:
        if n > 2 and all(n % d for d in range(2, int(n**0.5) + 1)):
            out.append(n)
        n -= 1
    return out


def crt(residues: list[int], primes: list[int]) -> int:
    """The integer in ``[0, prod(primes))`` with these residues (Garner's rebuild).

    Examples
    --------
    >>> crt([2, 3], [5, 7])
    17
    """
    value, modulus = 0, 1
    for r, p in zip(residues, primes, strict=True):
        step = ((int(r) - value) * pow(modulus, -1, p)) % p
        value += step * modulus
        modulus *= p
    return value


@dataclass(frozen=True)
class ValueShoe:
    """A shoe's counts per point value (``full``) and the mixed-radix index of its
    compositions by value: value 0 the fastest axis, ``index(c) = sum c_v stride_v``."""

    full: tuple[int, ...]

    @property
    def radix(self) -> np.ndarray:
        return np.array([n + 1 for n in self.full], dtype=np.int64)

    @property
    def strides(self) -> np.ndarray:
        return np.concatenate([[1], np.cumprod(self.radix)[:-1]]).astype(np.int64)

    @property
    def states(self) -> int:
        return prod(n + 1 for n in self.full)

    @property
    def size(self) -> int:
        return sum(self.full)

    def index(self, composition) -> int:
        return int(np.dot(np.asarray(composition, dtype=np.int64), self.strides))

    @property
    def orders(self) -> int:
        """``V``: the value orders of the whole shoe."""
        return factorial(self.size) // prod(factorial(n) for n in self.full)


def value_counts(counts: tuple[int, ...]) -> tuple[int, ...]:
    """Cards per point value of a shoe given per rank (13) or per card (52)."""
    values = CARD_VALUES if len(counts) == N_CARDS else RANK_VALUES
    out = np.bincount(values, weights=np.asarray(counts, dtype=np.int64), minlength=N_VALUES)
    return tuple(int(x) for x in out)


# -- The round's terms -------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Terms:
    """The draw walk's terms (multisets ``k`` of 4 to 6 values) in lexicographic order of
    their counts of the values 1 to 9, then of 0, with ``weight`` (valid orders) and
    ``used`` (cards); for :func:`_deal_jit`, each term's nonzero counts of the values 1 to
    9 and its skip table. The first ``zero`` terms hold tens and faces only."""

    k: np.ndarray
    weight: np.ndarray
    used: np.ndarray
    walk_index: np.ndarray  # each term's index in walk_terms(tableau)
    nz_value: np.ndarray
    nz_count: np.ndarray
    nz_len: np.ndarray
    skip: np.ndarray
    zero: int


def round_terms(tableau: Tableau) -> Terms:
    """The terms of ``tableau``'s draw walk, ordered and tabled for :func:`_deal_jit`."""
    from analyzer.engine.terms import walk_terms

    walk = walk_terms(tableau)
    weight = np.bincount(walk.term_index, weights=walk.count, minlength=len(walk.k))
    keys = np.column_stack([walk.k[:, 1:], walk.k[:, :1]])  # values 1..9, then 0
    order = np.lexsort(keys.T[::-1])
    k = walk.k[order]
    n = len(k)
    nz_value = np.zeros((n, _MAX_USED), dtype=np.int64)
    nz_count = np.zeros((n, _MAX_USED), dtype=np.int64)
    nz_len = np.zeros(n, dtype=np.int64)
    for t in range(n):
        values = np.nonzero(k[t, 1:])[0] + 1
        nz_len[t] = len(values)
        nz_value[t, : len(values)] = values
        nz_count[t, : len(values)] = k[t, values]
    # skip[t, v]: the first term after t whose counts of the values 1 to v - 1 differ
    # from t's (every term between counts v at least as often as t: infeasible where t
    # is for want of v's).
    skip = np.full((n, N_VALUES), n, dtype=np.int64)
    for v in range(2, N_VALUES):
        prefix = k[:, 1:v]
        for t in range(n - 2, -1, -1):
            skip[t, v] = skip[t + 1, v] if (prefix[t + 1] == prefix[t]).all() else t + 1
    zero = int((nz_len == 0).sum())
    return Terms(
        k,
        weight[order].astype(np.int64),
        walk.used[order].astype(np.int64),
        order.astype(np.int64),
        nz_value,
        nz_count,
        nz_len,
        skip,
        zero,
    )


def transitions(full: tuple[int, ...], terms: Terms) -> int:
    """Round transitions the deal may take: per term, the compositions holding it."""
    return int(
        sum(prod(max(0, full[v] + 1 - int(m)) for v, m in enumerate(row)) for row in terms.k)
    )


# -- Kernels -----------------------------------------------------------------------------------


@njit(cache=True)
def _remove_one_jit(source, radix, strides, p, out):
    """``out[c - e_v] += source[c]`` for every value ``v`` ``c`` holds (mod ``p``): one card
    more dealt, of any value, each value sequence counted once."""
    n_values = len(radix)
    digits = np.empty(n_values, dtype=np.int64)
    for idx in range(len(source)):
        x = source[idx] % p
        if x == 0:
            continue
        rest = idx
        for v in range(n_values):
            digits[v] = rest % radix[v]
            rest //= radix[v]
        for v in range(n_values):
            if digits[v] > 0:
                target = idx - strides[v]
                out[target] = (out[target] + x) % p


@njit(cache=True)
def _deal_jit(
    a, extra, radix, size, cut, one_more, min_left, k0, nz_value, nz_count, nz_len, skip, off,
    used, weight, zero, primes, row_top, row_bottom,
):  # fmt: skip
    """Deal every round starting in rows ``row_top - 1`` down to ``row_bottom``, in place,
    modulo each of ``primes`` (rows above dealt already: from the full shoe down, row by
    row, the whole deal).

    Compositions are taken a row at a time (the counts of the values 1 to 9 fixed, the
    tens and faces ``c_0`` from most to fewest): a round of tens and faces only stays in
    the row and is dealt count by count; every other round leaves the row for one of a
    lower index, dealt for the whole row at once (a loop over ``c_0`` that vectorises).

    Parameters
    ----------
    a : int64[states, primes * buckets]
        On entry, ``a[c, q * buckets]``: the value sequences of the shown card and the
        burn ending at each composition (round 1 starts there; those past the cut card
        are in ``extra``). On exit, ``a[c, q * buckets + j]`` (mod ``primes[q]``): the
        value sequences dealt before a round numbered ``j + 1`` (the last bucket: that
        number or more) starts at ``c``. The primes of a composition share its cache line.
    extra : int64[states, primes] or int64[1, primes]
        Round 1's starts past the cut card (that round is dealt and, under ``one_more``,
        one more); one column where there are none.
    radix : int64[10]
        Counts per value plus one (the index's axes, value 0 fastest).
    size, cut, one_more, min_left : int
        Cards in the shoe; the cards dealt before the cut card; 1 where one more round
        follows the cut card (unless it came out in place of a round's first card);
        the cards a round needs left to start.
    k0, nz_value, nz_count, nz_len, skip, off, used, weight : int64 arrays
        The terms (:class:`Terms`): ``k0`` their tens and faces, ``off`` their index
        offsets.
    zero : int
        The terms of tens and faces only (the first ``zero``).
    primes : int64 array
        The moduli, each below ``2**31``.
    row_top, row_bottom : int
        The rows dealt (a row: the compositions sharing their counts of the values 1-9).
    """
    states, slots = a.shape
    n_primes = len(primes)
    buckets = slots // n_primes
    n_terms = len(used)
    width = radix[0]
    has_extra = extra.shape[0] == states
    digits = np.zeros(len(radix), dtype=np.int64)
    left = row_top - 1
    rest = 0  # cards of the values 1 to 9
    for v in range(1, len(radix)):
        digits[v] = left % radix[v]
        left //= radix[v]
        rest += digits[v]
    src = np.zeros((width, slots), dtype=np.int64)
    # a round from slot r (prime q, bucket j) goes to slot q * buckets + min(j + 1, top)
    top = buckets - 1
    to_slot = np.empty(slots, dtype=np.int64)
    for r in range(slots):
        to_slot[r] = (r // buckets) * buckets + min(r % buckets + 1, top)
    modulus = np.empty(slots, dtype=np.int64)
    for r in range(slots):
        modulus[r] = primes[r // buckets]
    at_cut = 0
    for row in range(row_top - 1, row_bottom - 1, -1):
        if row != row_top - 1:  # the next row down, in mixed radix
            v = 1
            while digits[v] == 0:
                digits[v] = radix[v] - 1
                rest += radix[v] - 1
                v += 1
            digits[v] -= 1
            rest -= 1
        base = row * width
        at_cut = size - cut - rest  # the tens and faces where the cut card is next
        live = False
        for c0 in range(width - 1, -1, -1):
            idx = base + c0
            n = c0 + rest
            pos = size - n
            for r in range(slots):
                if n < min_left:
                    a[idx, r] = 0
                a[idx, r] %= modulus[r]
                src[c0, r] = a[idx, r] if pos <= cut else 0
                if src[c0, r]:
                    live = True
            if has_extra:
                for q in range(n_primes):
                    r = q * buckets
                    if n < min_left:
                        extra[idx, q] = 0
                    if pos > cut and one_more == 1:
                        src[c0, r] = extra[idx, q] % primes[q]
                        if src[c0, r]:
                            live = True
                    a[idx, r] = (a[idx, r] + extra[idx, q]) % primes[q]
            if n < min_left:
                continue
            for t in range(zero):  # rounds of tens and faces: within the row
                m0 = k0[t]
                u = used[t]
                if m0 > c0 or n - u < min_left:
                    continue
                if pos + u <= cut or (one_more == 1 and pos != cut):
                    w = weight[t]
                    for r in range(slots):
                        a[idx - m0, to_slot[r]] += src[c0, r] * w
        if not live:
            continue
        t = zero
        while t < n_terms:
            feasible = True
            for i in range(nz_len[t]):
                v = nz_value[t, i]
                if nz_count[t, i] > digits[v]:
                    t = skip[t, v]
                    feasible = False
                    break
            if not feasible:
                continue
            u = used[t]
            low = max(k0[t], min_left + u - rest)
            # Below ends_past tens and faces the round ends past the cut card: dealt only
            # under one_more, and not where the cut card took its first card's place.
            ends_past = size - cut + u - rest
            target = base - off[t]
            w = weight[t]
            first = low if one_more == 1 else max(low, ends_past)
            gap = at_cut if one_more == 1 and first <= at_cut < ends_past else width
            for c0 in range(first, min(gap, width)):
                for r in range(slots):
                    a[target + c0, to_slot[r]] += src[c0, r] * w
            for c0 in range(gap + 1, width):
                for r in range(slots):
                    a[target + c0, to_slot[r]] += src[c0, r] * w
            t += 1
    return at_cut


@njit(cache=True)
def _arrangements_jit(a, radix, size, fact, inv_fact, shift, p, out):
    """``out[c] = a[c] (n - shift)! / prod_v c_v!`` (mod ``p``), ``n`` the cards of ``c``
    (0 where fewer than ``shift``): with ``shift`` 0, the value orders through ``c``."""
    n_values = len(radix)
    for idx in range(len(a)):
        x = a[idx]
        if x == 0:
            out[idx] = 0
            continue
        rest = idx
        n = 0
        for v in range(n_values):
            d = rest % radix[v]
            rest //= radix[v]
            n += d
            x = x * inv_fact[d] % p
        out[idx] = x * fact[n - shift] % p if n >= shift else 0


@njit(cache=True)
def _moments_jit(source, falling, p, out):
    """Along one axis: ``out[i, m, j] = sum_c falling[m, c] source[i, c, j]`` (mod ``p``)."""
    pre, count, post = source.shape
    moments = out.shape[1]
    for i in range(pre):
        for m in range(moments):
            for j in range(post):
                total = 0
                for c in range(count):
                    f = falling[m, c]
                    if f:
                        total = (total + f * source[i, c, j]) % p
                out[i, m, j] = total


def _moments(h: np.ndarray, full: tuple[int, ...], p: int) -> np.ndarray:
    """``sum_c h[c] prod_v ff(c_v, m_v)`` (mod ``p``) for every ``m`` with ``m_v`` up to
    ``min(full_v, 6)``: an array indexed ``[m_9, ..., m_0]``."""
    shape = [n + 1 for n in reversed(full)]  # C order: value 0 last (fastest)
    array = h.reshape(shape)
    for axis in range(len(shape)):
        value = len(full) - 1 - axis
        count = full[value] + 1
        moments = min(full[value], _MAX_USED) + 1
        falling = np.zeros((moments, count), dtype=np.int64)
        for m in range(moments):
            for c in range(m, count):
                falling[m, c] = prod(range(c - m + 1, c + 1)) % p
        pre = int(np.prod(array.shape[:axis], dtype=np.int64))
        post = int(np.prod(array.shape[axis + 1 :], dtype=np.int64))
        out = np.empty((pre, moments, post), dtype=np.int64)
        _moments_jit(np.ascontiguousarray(array).reshape(pre, count, post), falling, p, out)
        array = out.reshape([*array.shape[:axis], moments, *array.shape[axis + 1 :]])
    return array


# -- One pass, modulo one prime ------------------------------------------------------------


@dataclass(frozen=True)
class DealPlan:
    """What the passes need: the shoe by value, the terms, the first round's starts
    (burned cards per first value, None: no burn), the cut and last-round rule, and the
    round-number buckets (``buckets - 1`` rounds told apart, the last bucket the rest)."""

    shoe: ValueShoe
    terms: Terms
    burned: tuple[int, ...] | None
    cut: int
    one_more: bool
    buckets: int

    @property
    def most_rounds(self) -> int:
        return self.shoe.size // 4 + 1

    def primes(self) -> list[int]:
        """Enough primes that their product exceeds every count rebuilt (``R V``)."""
        bound = self.most_rounds * self.shoe.orders
        out: list[int] = []
        for p in primes_below(PRIME_LIMIT, 64):
            out.append(p)
            if prod(out) > bound:
                return out
        raise AnalyzerError("--exact: the shoe is too large for the exact pass")  # pragma: no cover


def _start(plan: DealPlan, p: int) -> np.ndarray:
    """Value sequences of the shown card and the burn, ending at each composition."""
    shoe = plan.shoe
    radix, strides = shoe.radix, shoe.strides
    full_index = shoe.states - 1
    if plan.burned is None:
        out = np.zeros(shoe.states, dtype=np.int64)
        out[full_index] = 1
        return out
    # Horner over the burn depth: acc = R(acc) + Y_b, from the deepest burn up, where
    # Y_b holds the shown cards whose value burns b more.
    depth = max(b for v, b in enumerate(plan.burned) if shoe.full[v])
    acc = np.zeros(shoe.states, dtype=np.int64)
    for b in range(depth, -1, -1):
        if b != depth:
            after = np.zeros(shoe.states, dtype=np.int64)
            _remove_one_jit(acc, radix, strides, p, after)
            acc = after
        for v, burned in enumerate(plan.burned):
            if burned == b and shoe.full[v]:
                acc[full_index - strides[v]] += 1
    return acc % p


#: Rows of compositions dealt between two reports of progress: about 1 in 200 of a deck's.
_ROWS_AT_ONCE = 10_000


@dataclass
class PassState:
    """A pass partway through: the round starts ``a`` and ``extra`` as :func:`_deal_jit`
    leaves them, every row from ``row`` up dealt (``row``: :func:`rows` at the start, 0
    when the whole deal is done). Rows from ``row`` up are final (a round only lowers the
    index); those below hold what the rows above sent them so far."""

    a: np.ndarray
    extra: np.ndarray
    row: int


def pass_start(plan: DealPlan, primes: list[int]) -> PassState:
    """A pass modulo each of ``primes`` before any round: the shown card and the burn."""
    shoe = plan.shoe
    past = _positions(shoe) > plan.cut
    buckets = plan.buckets
    a = np.zeros((shoe.states, len(primes) * buckets), dtype=np.int64)
    extra = np.zeros((1, len(primes)), dtype=np.int64)
    for q, p in enumerate(primes):
        start = _start(plan, p)
        a[:, q * buckets] = np.where(past, 0, start)
        if (past & (start != 0)).any():
            if extra.shape[0] == 1:
                extra = np.zeros((shoe.states, len(primes)), dtype=np.int64)
            extra[:, q] = np.where(past, start, 0)
    return PassState(a, extra, rows(shoe))


def pass_fits(plan: DealPlan, primes: list[int], state: PassState) -> bool:
    """Is ``state`` shaped as a pass of ``plan`` modulo ``primes`` is (int64, its row in
    range, no count negative)? Its values are not otherwise checkable: rows below ``row``
    hold sums not yet reduced."""
    states, width = plan.shoe.states, len(primes) * plan.buckets
    a, extra = state.a, state.extra
    if a.dtype != np.int64 or extra.dtype != np.int64 or a.shape != (states, width):
        return False
    if extra.shape not in ((1, len(primes)), (states, len(primes))):
        return False
    return 0 <= state.row <= rows(plan.shoe) and bool((a >= 0).all() and (extra >= 0).all())


def deal_pass(
    plan: DealPlan,
    primes: list[int],
    dealt: Callable[[int], object] | None = None,
    state: PassState | None = None,
    keep: Callable[[PassState, bool], object] | None = None,
    summing: Callable[[int, int], object] | None = None,
) -> list[dict[str, np.ndarray]]:
    """One pass modulo each of ``primes``: per prime and bucket, ``played`` (value orders
    with a round of that bucket, summed over its rounds) and ``moments[j, t]`` (``G`` of
    term ``t``, in :attr:`Terms.k`'s order). ``dealt(rows)`` is called as rows of
    compositions are dealt (:func:`rows`: in all).

    ``state``: a pass taken up where it stopped (:func:`pass_start`: from the start; it is
    dealt on in place). ``keep(state, interrupted)`` is called after each block of rows
    with the pass as it stands, ``interrupted`` False, and once more, True, when Ctrl-C
    or SIGTERM stops the pass (they are taken between blocks only, so ``state`` always
    holds whole rows: a block dealt twice would count its rounds twice), before the
    ``KeyboardInterrupt`` goes on up. ``summing(k, n)`` is called as the counts modulo
    the ``k``-th of the ``n`` primes are summed into ``played`` and ``moments``, once
    every row is dealt (a minute or more for one deck: a bar says so)."""
    from analyzer.interrupts import interrupts_deferred, interrupts_polled

    shoe, terms = plan.shoe, plan.terms
    if state is None:
        state = pass_start(plan, primes)
    elif not pass_fits(plan, primes, state):
        raise AnalyzerError("--exact: the pass taken up is not one of this shoe and primes")
    off = terms.k @ shoe.strides
    moduli = np.array(primes, dtype=np.int64)
    k0 = np.ascontiguousarray(terms.k[:, 0])
    out = []
    try:
        with interrupts_polled() as stop_if_asked:
            while state.row > 0:
                top = state.row
                bottom = max(0, top - _ROWS_AT_ONCE)
                _deal_jit(
                    state.a, state.extra, shoe.radix, shoe.size, plan.cut, int(plan.one_more),
                    ROUND_CARDS, k0, terms.nz_value, terms.nz_count, terms.nz_len, terms.skip,
                    off, terms.used, terms.weight, terms.zero, moduli, top, bottom,
                )  # fmt: skip
                state.row = bottom
                if keep is not None:
                    keep(state, False)
                if dealt is not None:
                    dealt(top - bottom)
                stop_if_asked()
            a, buckets = state.a, plan.buckets
            for q, p in enumerate(primes):
                if summing is not None:
                    summing(q + 1, len(primes))
                # (A copy: the pass kept on an interrupt here is whole, with row 0.)
                starts = np.ascontiguousarray(a[:, q * buckets : (q + 1) * buckets].T)
                out.append(_weigh(plan, starts, p))
                stop_if_asked()
    except KeyboardInterrupt:
        if keep is not None:
            with interrupts_deferred():  # a second Ctrl-C does not cut the pass kept short
                keep(state, True)
        raise
    return out


def rows(shoe: ValueShoe) -> int:
    """Rows of compositions (those sharing their counts of the values 1 to 9)."""
    return shoe.states // (shoe.full[0] + 1)


def _weigh(plan: DealPlan, a: np.ndarray, p: int) -> dict[str, np.ndarray]:
    """From the round starts ``a`` (mod ``p``): per bucket, the value orders with a round
    there (``played``) and each term's ``G`` (``moments``)."""
    shoe, terms = plan.shoe, plan.terms
    radix = shoe.radix
    fact = np.array([factorial(i) % p for i in range(shoe.size + 1)], dtype=np.int64)
    inv_fact = np.array([pow(int(f), -1, p) for f in fact], dtype=np.int64)
    played = np.zeros(plan.buckets, dtype=np.int64)
    moments = np.zeros((plan.buckets, len(terms.k)), dtype=np.int64)
    h = np.empty(shoe.states, dtype=np.int64)
    full = np.asarray(shoe.full)
    for j in range(plan.buckets):
        _arrangements_jit(a[j], radix, shoe.size, fact, inv_fact, 0, p, h)
        played[j] = int(h.sum(dtype=np.uint64) % np.uint64(p))  # 2**33 residues fit
        for u in sorted(set(terms.used.tolist())):
            _arrangements_jit(a[j], radix, shoe.size, fact, inv_fact, u, p, h)
            table = _moments(h, shoe.full, p)
            for t in np.nonzero(terms.used == u)[0]:
                if (terms.k[t] > full).any():
                    continue  # values the shoe does not hold: never dealt
                moments[j, t] = table[tuple(terms.k[t, ::-1].tolist())]
    return {"played": played, "moments": moments}


def _positions(shoe: ValueShoe) -> np.ndarray:
    """The cards dealt before each composition (by index)."""
    n = np.zeros(shoe.states, dtype=np.int64)
    idx = np.arange(shoe.states, dtype=np.int64)
    for r in shoe.radix:
        n += idx % r
        idx //= r
    return shoe.size - n


# -- Pricing: each bet's net summed over a term's orders, identities averaged -------------


def term_nets(bet: Bet, tableau: Tableau, counts: tuple[int, ...]) -> list[Fraction]:
    """Per term of :func:`~analyzer.engine.terms.walk_terms` (its order): the bet's net per
    unit staked (before any fee), summed over the term's valid value orders, each card's
    identity a uniform distinct draw from the cards of its value in ``counts`` (per rank
    or per card: the full shoe).

    Bets on values use :func:`~analyzer.engine.terms.term_coefficients`; bets on pairs
    (a hand's first two cards of one rank, or one card twice) weigh each pair state by
    its chance given the first four cards' values.

    Raises
    ------
    AnalyzerError
        A bet on the cards themselves, or multiplied (not priced here).
    """
    from analyzer.engine.pricing import pricing
    from analyzer.engine.terms import is_value_level, term_coefficients

    if is_value_level(bet) and not bet.multiplied:
        return term_coefficients(bet, tableau)
    how = pricing(bet)
    if how.engine not in ("pairs", "round") or bet.multiplied:
        raise AnalyzerError(
            f"--exact prices bets on point values and pairs: {bet.id} looks at the cards "
            "themselves (sample the shoe with --shoes)"
        )
    if how.needs_suits and len(counts) != N_CARDS:
        raise AnalyzerError(
            f"--exact: {bet.id} is a bet on suits and the shoe's suits are not known "
            "(give a shoe per card)"
        )
    return _pair_term_nets(bet, tableau, counts)


def _pair_term_nets(bet: Bet, tableau: Tableau, counts: tuple[int, ...]) -> list[Fraction]:
    from analyzer.engine.terms import cell_columns, leaf_terms
    from analyzer.paytables.settle import Settlement, settling_rule

    # (each leaf's term and cell in walk_terms' order, as term_nets' callers index them)
    sequences, terms, term_of_leaf, cells, cell_of_leaf = leaf_terms(tableau)
    first = sequences[:, :4]
    paired = (first[:, 0] == first[:, 2]) | (first[:, 1] == first[:, 3])
    four = np.where(paired, first @ np.array([1000, 100, 10, 1]), -1)
    n_cells = len(cells)
    key = (term_of_leaf * n_cells + cell_of_leaf) * 10001 + (four + 1)
    groups, group_count = np.unique(key, return_counts=True)
    # The bet's net in each (cell, player pair state, banker pair state).
    detail = pair_detail_needed(bet.fields)
    base = cell_columns(tableau)
    states = [(pp, bp) for pp in range(3) for bp in range(3)]
    columns = {name: np.tile(col, len(states)) for name, col in base.items()}
    pps = np.repeat([s[0] for s in states], n_cells)
    bps = np.repeat([s[1] for s in states], n_cells)
    columns |= pair_columns(pps, bps, detail)
    nets = Settlement(bet).nets()
    rule = settling_rule(bet, columns, len(pps))
    # Integer arithmetic over one denominator per chance table (Fractions per group were
    # most of the pricing's time): nets scaled by the lcm of their denominators.
    scale = lcm(*(Fraction(x).denominator for x in nets))
    scaled = [int(Fraction(x) * scale) for x in nets]
    net_of = [[scaled[rule[s * n_cells + c]] for s in range(len(states))] for c in range(n_cells)]
    chances = _PairChances(counts)
    plain = [0] * len(terms)  # per term: sum of count * scaled net, no pair dealt
    paired: dict[tuple[int, int], int] = {}  # (term, chance total): sum of count * ways . net
    for g, count in zip(groups.tolist(), group_count.tolist(), strict=True):
        rest, f = divmod(g, 10001)
        t, c = divmod(rest, n_cells)
        if f == 0:
            plain[t] += count * net_of[c][0]
            continue
        ways, total = chances.of(f - 1)
        key = (t, total)
        paired[key] = paired.get(key, 0) + count * sum(
            w * n for w, n in zip(ways, net_of[c], strict=True) if w
        )
    out = [Fraction(x, scale) for x in plain]
    for (t, total), numerator in paired.items():
        out[t] += Fraction(numerator, total * scale)
    return out


class _PairChances:
    """The ways of each pair state of the two hands given the values of the first four
    cards (P1, B1, P2, B2), their identities uniform distinct draws from the full shoe's
    cards of those values. Per card: two of one card are a suited pair; per rank (suits
    unknown), two of one rank are a rank pair.

    Every choice of the four cards' kinds is weighed at once (an outer product of the
    kinds of each position's value, less the cards taken before), not walked one by one."""

    def __init__(self, counts: tuple[int, ...]) -> None:
        per_card = len(counts) == N_CARDS
        ranks = CARD_RANKS if per_card else np.arange(N_RANKS)
        values = CARD_VALUES if per_card else RANK_VALUES
        kinds: list[list[int]] = [[] for _ in range(N_VALUES)]
        for t, n in enumerate(counts):
            if n:
                kinds[int(values[t])].append(t)
        self.kinds = [np.array(k, dtype=np.int64) for k in kinds]
        self.counts = np.asarray(counts, dtype=np.int64)
        self.ranks = np.asarray(ranks, dtype=np.int64)
        self.same_card = SUITED_PAIR if per_card else RANK_PAIR
        self.memo: dict[int, tuple[list[int], int]] = {}

    def _state(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        rank_pair = np.where(self.ranks[x] == self.ranks[y], RANK_PAIR, NO_PAIR)
        return np.where(x == y, self.same_card, rank_pair)

    def of(self, code: int) -> tuple[list[int], int]:
        """``(ways, total)``: per pair state ``3 * player + banker`` the ways of the four
        cards whose values are the digits of ``code`` (P1 B1 P2 B2), and all ways (1 where
        the shoe cannot deal them: the term weighs nothing)."""
        if code not in self.memo:
            values = [int(x) for x in f"{code:04d}"]
            grids = np.meshgrid(*(self.kinds[v] for v in values), indexing="ij")
            chosen = [g.ravel() for g in grids]
            weight = np.ones(len(chosen[0]), dtype=np.int64)
            for i, x in enumerate(chosen):
                taken = sum((y == x).astype(np.int64) for y in chosen[:i])
                weight *= np.maximum(self.counts[x] - taken, 0)
            state = 3 * self._state(chosen[0], chosen[2]) + self._state(chosen[1], chosen[3])
            ways = np.zeros(9, dtype=np.int64)
            np.add.at(ways, state, weight)  # integers: bincount would sum in floats
            total = int(weight.sum())
            self.memo[code] = ([int(w) for w in ways], total or 1)
        return self.memo[code]
