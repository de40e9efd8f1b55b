"""Random multipliers: the special card identities a round draws, and what they pay.

Each round a multiplier game draws ``K`` distinct card identities (rank and suit) from a
virtual deck of 52 (``K`` by the ``cards`` distribution) and gives each an independent
multiplier ``M`` (by the ``values`` distribution). A bet's *multiplier* is the product,
over its counted cards, of the multipliers of the special identities among them: every
physical copy multiplies again, so an identity dealt twice gives ``M**2``. With a ``cap``
the product never exceeds it.

The specials are drawn independently of the shoe, so what a round's counted cards pay
depends only on their identity pattern (:mod:`analyzer.game.identities`): ``d`` distinct
identities with ``m_1 .. m_d`` copies. Given that pattern, the chance that a given ``t`` of
them are all special is ``q_t = E[K (K-1) ... (K-t+1)] / (52 * 51 * ... * (52-t+1))``, and
expanding the product of ``1 + [special] (M**m - 1)`` over the identities gives, exactly,

    E[multiplier**r] = sum over subsets T of the identities of q_|T| * prod (E[M**(r m)] - 1)

A cap makes the product's distribution matter: then the chance that *exactly* a given
``j`` of the ``d`` are special (``E[C(52-d, K-j) / C(52, K)]``) weighs the exact
distribution of each subset's capped product. Both are exact Fractions.

A *Lightning suit* model (``suits`` instead of ``cards``; games of the family only) draws
``K`` of the four suits instead, each with its own multiplier, and every card of a special
suit carries its suit's multiplier: a bet's multiplier is the product over its counted
cards of the multipliers of those of a special suit, so ``c`` counted cards of one special
suit give ``M**c``. The same expansion holds with the counted cards' *suit pattern* (how
many of them share each suit) in place of the identity pattern and 4 suits in place of 52
identities: the model is this one with ``universe = 4``, keyed by suits.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_CARDS, N_RANKS, SUITS, parse_card
from analyzer.game.shoe import ROUND_CARDS
from analyzer.paytables.unknowns import Poly, constant_or_poly, parse_expression
from analyzer.records import record
from analyzer.schema import check_keys, exact_number, table, whole_number

#: A probability: exact, or a polynomial in the paytable's unknowns.
Probability = Fraction | Poly

#: The largest multiplier value and cap accepted (a product of six is still exact).
MAX_MULTIPLIER = 10**6
MAX_CAP = 10**12
#: The most distinct multiplier values (and ``cards`` entries) a distribution may list.
MAX_ENTRIES = 64
#: The most outcomes a product of multipliers may have to be priced exactly.
MAX_PRODUCTS = 100_000
#: The largest fee per unit staked.
MAX_FEE = 10
#: What a model's specials are: card identities (rank and suit), or whole suits.
KEYS = ("identities", "suits")
#: What each kind of special is drawn from: 52 card identities, or 4 suits.
_UNIVERSE = {"identities": N_CARDS, "suits": len(SUITS)}


@record
class Multipliers:
    """A multiplier distribution: ``cards`` (how many specials a round draws, with
    probabilities), ``values`` (each one's multiplier, with probabilities), an optional
    ``cap`` on the product, the ``universe`` they are drawn from (52 identities; smaller
    only in tests that enumerate the draws) and what a special is, ``by``: a card identity
    (``"identities"``), or a whole suit (``"suits"``, a Lightning suit: ``cards`` is then
    how many of the 4 suits are drawn, and a pattern is the counted cards' suit pattern)."""

    cards: tuple[tuple[int, Probability], ...]
    values: tuple[tuple[Fraction, Probability], ...]
    cap: Fraction | None = None
    universe: int = N_CARDS
    #: The unknowns its probabilities may be polynomials in (none: all are Fractions).
    unknowns: tuple[str, ...] = ()
    by: str = "identities"

    @property
    def by_suits(self) -> bool:
        """Are the specials whole suits (a Lightning suit), not card identities?"""
        return self.by == "suits"

    def __hash__(self) -> int:
        # The moments are cached by model: hash its Fractions once, not at every lookup.
        try:
            return self.__dict__["_hash"]
        except KeyError:
            value = hash((self.cards, self.values, self.cap, self.universe, self.unknowns, self.by))
            object.__setattr__(self, "_hash", value)
            return value

    def __getstate__(self) -> dict[str, Any]:
        # A string's hash differs between processes: another process hashes afresh.
        return {key: value for key, value in self.__dict__.items() if key != "_hash"}

    def at(self, point: Mapping[str, Fraction]) -> Multipliers:
        """The model with its unknowns given values."""

        def value(p: Probability) -> Fraction:
            return p.at(point) if isinstance(p, Poly) else p

        return replace(
            self,
            cards=tuple((k, value(p)) for k, p in self.cards),
            values=tuple((v, value(p)) for v, p in self.values),
            unknowns=(),
        )

    @property
    def probabilities(self) -> list[Probability]:
        """Every probability of the model (polynomials where there are unknowns)."""
        return [p for _, p in self.cards] + [p for _, p in self.values]

    @property
    def fingerprint(self) -> dict[str, Any]:
        drawn = {str(k): str(p) for k, p in self.cards}
        return {
            **({"suits": drawn} if self.by_suits else {"cards": drawn}),
            "values": {str(v): str(p) for v, p in self.values},
            "cap": None if self.cap is None else str(self.cap),
            **({} if self.universe == _UNIVERSE[self.by] else {"universe": self.universe}),
        }

    def all_special(self, distinct: int) -> Fraction:
        """``q_t``: the chance that ``distinct`` given identities are all special (0 for
        more than the universe holds: no round shows them)."""
        if distinct > self.universe:
            return Fraction(0)
        return sum(
            (
                p * Fraction(math.perm(k, distinct), math.perm(self.universe, distinct))
                for k, p in self.cards
            ),
            start=Fraction(0),
        )

    def exactly_special(self, distinct: int, special: int) -> Fraction:
        """The chance that, of ``distinct`` given identities, exactly a given ``special``
        of them are special (and the rest not)."""
        if distinct > self.universe:
            return Fraction(0)
        rest = self.universe - distinct
        return sum(
            (
                p * Fraction(math.comb(rest, k - special), math.comb(self.universe, k))
                for k, p in self.cards
                if k >= special
            ),
            start=Fraction(0),
        )

    def value_moment(self, power: int) -> Fraction:
        """``E[M**power]`` of one special identity's multiplier."""
        return sum((p * v**power for v, p in self.values), start=Fraction(0))

    def moment(self, pattern: tuple[int, ...], power: int) -> Fraction:
        """``E[multiplier**power]`` for counted cards of identity ``pattern``."""
        return _moment(self, pattern, power)

    def distribution(self, pattern: tuple[int, ...]) -> tuple[tuple[Fraction, Fraction], ...]:
        """``(multiplier, probability)`` of counted cards of identity ``pattern``, the
        multiplier capped, in increasing order; exact (the paytable's unknowns given)."""
        if self.unknowns:
            raise AnalyzerError("the multiplier distribution needs values for the unknowns")
        return _multiplier_distribution(self, pattern)

    def smallest(self, cards: int) -> Fraction:
        """The smallest multiplier ``cards`` counted cards can have."""
        low = min(v for v, _ in self.values)
        return min(Fraction(1), low**cards)

    def largest(self, cards: int) -> Fraction:
        """The largest multiplier ``cards`` counted cards can have (with the cap)."""
        drawn = max(k for k, p in self.cards if isinstance(p, Poly) or p)
        # (one special suit can hold every counted card)
        specials = min(cards, drawn) if not self.by_suits else cards if drawn else 0
        high = max(Fraction(1), max(v for v, _ in self.values) ** specials)
        return high if self.cap is None else min(high, self.cap)


def _possible(probability: Probability) -> bool:
    """Can ``probability`` be more than 0: a Fraction that is, or a polynomial in the
    unknowns that is not the zero polynomial (it is then nonzero at some point of any box
    of positive width)."""
    return bool(probability.terms) if isinstance(probability, Poly) else probability > 0


def reachable_extremes(model: Multipliers, pattern: tuple[int, ...]) -> tuple[Fraction, Fraction]:
    """The smallest and the largest multiplier counted cards of identity (or suit)
    ``pattern`` can be paid with, capped: over every number of specials a round can
    draw, every number of the pattern's identities they can take (``j`` of its ``d``
    where the other ``K - j`` fit among the universe's rest), and every value a special
    can have (probabilities that can be more than 0, unknowns anywhere in their ranges).
    The largest puts the top value on the ``j`` identities with the most copies (the
    fewest, where every value shrinks); the smallest, the least value likewise.

    Parameters
    ----------
    model : Multipliers
        The multipliers' model (its probabilities exact, or polynomials in unknowns).
    pattern : tuple of int
        The counted cards' identity (or suit) pattern: copies of each distinct one.

    Returns
    -------
    tuple of Fraction
        The smallest and the largest multiplier, capped.

    Raises
    ------
    AnalyzerError
        Where no round of the model can draw specials among these cards.

    Examples
    --------
    >>> model = multipliers_from_table({"cards": 1, "values": {"2": "1/2", "8": "1/2"}}, "t")
    >>> reachable_extremes(model, (2, 1))  # two copies of one identity, one of another
    (Fraction(1, 1), Fraction(64, 1))
    """
    distinct = len(pattern)
    values = [v for v, p in model.values if _possible(p)]
    top, low = max(values), min(values)
    by_copies = sorted(pattern, reverse=True)
    largest, smallest = None, None
    for drawn, p in model.cards:
        if not _possible(p) or distinct > model.universe:
            continue
        rest = model.universe - distinct
        for special in range(max(0, drawn - rest), min(drawn, distinct) + 1):
            # The j identities that make the product largest (smallest): each special
            # multiplies by value ** copies, value the top (least) one.
            more = by_copies[:special] if top >= 1 else by_copies[distinct - special :]
            fewer = by_copies[distinct - special :] if low >= 1 else by_copies[:special]
            high = math.prod((top**c for c in more), start=Fraction(1))
            least = math.prod((low**c for c in fewer), start=Fraction(1))
            if model.cap is not None:
                high, least = min(high, model.cap), min(least, model.cap)
            largest = high if largest is None else max(largest, high)
            smallest = least if smallest is None else min(smallest, least)
    if largest is None or smallest is None:
        raise AnalyzerError("no round of the multipliers' model can draw these cards' specials")
    return smallest, largest


@cache
def _moment(model: Multipliers, pattern: tuple[int, ...], power: int) -> Fraction:
    if power == 0:
        return Fraction(1)
    if model.cap is None:
        # The product of (1 + z (E[M**(r m)] - 1)) over the identities, coefficient of z**t
        # weighted by q_t.
        coefficients = [Fraction(1)]
        for copies in pattern:
            excess = model.value_moment(power * copies) - 1
            coefficients = [
                a + (excess * b if b is not None else 0)
                for a, b in zip([*coefficients, Fraction(0)], [None, *coefficients], strict=True)
            ]
        return sum(
            (c * model.all_special(t) for t, c in enumerate(coefficients)), start=Fraction(0)
        )
    return sum(
        (
            weight * _capped_moment(model, chosen, power)
            for weight, chosen in _specials(model, pattern)
        ),
        start=Fraction(0),
    )


def _specials(
    model: Multipliers, pattern: tuple[int, ...]
) -> Iterator[tuple[Fraction, tuple[int, ...]]]:
    """Each subset of the pattern's identities (their copies) with the chance that exactly
    it is special: every subset of a size is equally likely."""
    distinct = len(pattern)
    for special in range(distinct + 1):
        weight = model.exactly_special(distinct, special)
        if weight:
            for chosen in itertools.combinations(pattern, special):
                yield weight, chosen


@cache
def _capped_moment(model: Multipliers, copies: tuple[int, ...], power: int) -> Fraction:
    """``E[min(prod M_i**copies_i, cap)**power]`` over independent multipliers."""
    return sum(
        (p * min(v, model.cap) ** power for v, p in _products(model, copies).items()),
        start=Fraction(0),
    )


@cache
def _products(model: Multipliers, copies: tuple[int, ...]) -> dict[Fraction, Fraction]:
    """The distribution of ``min(prod M_i**copies_i, cap)`` over independent multipliers
    (no cap: of the product). A partial product that the factors still to come cannot
    bring back under the cap is the cap already: its mass is kept apart, so the table
    stays small. A table that may hold more than :data:`MAX_PRODUCTS` outcomes is
    refused in one line before any work."""
    _check_products(model)
    cap = model.cap
    low = min(v for v, _ in model.values)
    product = {Fraction(1): Fraction(1)}
    at_cap = Fraction(0)
    for i, count in enumerate(copies):
        # The least the factors still to come multiply by (each is some value**copies).
        least = math.prod(low**c for c in copies[i + 1 :])
        step: dict[Fraction, Fraction] = {}
        for value, p in product.items():
            for v, q in model.values:
                key = value * v**count
                if cap is not None and key * least >= cap:
                    at_cap += p * q
                else:
                    step[key] = step.get(key, Fraction(0)) + p * q
        product = step
    if cap is None:
        return product
    out = {min(v, cap): p for v, p in product.items()}  # under the cap, but a last value
    if at_cap:
        out[cap] = out.get(cap, Fraction(0)) + at_cap
    return out


@cache
def _check_products(model: Multipliers) -> None:
    # A product of m special cards' multipliers takes at most one value per multiset of m
    # values: C(n + m - 1, m) of them, m at most the six cards of a round (or the four
    # suits).
    m = min(ROUND_CARDS, model.universe, max(k for k, p in model.cards if isinstance(p, Poly) or p))
    n = len(model.values)
    bound = sum(math.comb(n + j - 1, j) for j in range(m + 1))
    if bound > MAX_PRODUCTS:
        raise AnalyzerError(
            f"multipliers: {n} values on up to {m} special cards of a round make up to "
            f"{bound:,} distinct products, more than the {MAX_PRODUCTS:,} a cap or a "
            "session's distribution is priced exactly with (use fewer values)"
        )


@cache
def _multiplier_distribution(
    model: Multipliers, pattern: tuple[int, ...]
) -> tuple[tuple[Fraction, Fraction], ...]:
    # Which of the pattern's identities are special, then the product of their
    # multipliers, capped.
    out: dict[Fraction, Fraction] = {}
    for weight, chosen in _specials(model, pattern):
        for value, p in _products(model, chosen).items():
            key = value if model.cap is None else min(value, model.cap)
            out[key] = out.get(key, Fraction(0)) + weight * p
    return tuple(sorted((m, p) for m, p in out.items() if p))


def distribution_from_table(
    data: Any, where: str, key: str, what: str, unknowns: tuple[str, ...] = ()
) -> dict[Fraction, Probability]:
    """``{outcome: probability}`` from a TOML table of exact numbers summing to 1 (with
    unknowns, polynomials in them summing to 1 whatever their values)."""
    entries = table(data, where, repr(key))
    if not entries:
        raise AnalyzerError(f"{where}: {key!r} is empty")
    if len(entries) > MAX_ENTRIES:
        raise AnalyzerError(f"{where}: {key!r} lists more than {MAX_ENTRIES} {what}s")
    out: dict[Fraction, Fraction] = {}
    for name, probability in entries.items():
        outcome = exact_number(name, f"{where}: {key!r}", f"the {what} {name[:20]!r}")
        if outcome in out:
            raise AnalyzerError(f"{where}: {key!r} lists the {what} {name[:20]!r} twice")
        label = f"the probability of {name[:20]!r}"
        if unknowns:
            p = constant_or_poly(parse_expression(probability, unknowns, f"{where}: {key!r}"))
        elif isinstance(probability, str) and re.search("[a-z]", probability):
            named = re.search("[a-z][a-z0-9_]*", probability)[0]
            raise AnalyzerError(
                f"{where}: {key!r}: {label} names {named!r}, which is not an unknown of the "
                "paytable (declare it in [unknowns])"
            )
        else:
            p = exact_number(probability, f"{where}: {key!r}", label)
        if not isinstance(p, Poly) and not 0 <= p <= 1:
            raise AnalyzerError(f"{where}: {key!r}: {label} is outside [0, 1]")
        out[outcome] = p
    total = sum(out.values(), start=Fraction(0))
    if total != 1:
        shown = f"{total} ({float(total):.6g})" if not isinstance(total, Poly) else str(total)
        raise AnalyzerError(f"{where}: the probabilities of {key!r} sum to {shown}, not 1")
    return out


def multipliers_from_table(
    data: Mapping[str, Any], where: str, unknowns: tuple[str, ...] = (), all_used: bool = True
) -> Multipliers:
    """A ``[multipliers]`` table: ``cards`` (a whole number, or ``{count = probability}``)
    or ``suits`` (the same, of Lightning suits: how many of the 4 suits are special, each
    equally likely), ``values`` (``{multiplier = probability}``) and an optional ``cap``;
    probabilities may be expressions in ``unknowns``."""
    table(data, where, "a table with 'cards' (or 'suits') and 'values'")
    check_keys(data, {"cards", "suits", "values", "cap"}, where)
    if "cards" in data and "suits" in data:
        raise AnalyzerError(
            f"{where}: give 'cards' (special card identities) or 'suits' (Lightning suits), "
            "not both"
        )
    key = "suits" if "suits" in data else "cards"
    by = "suits" if key == "suits" else "identities"
    universe = _UNIVERSE[by]
    for needed in (key, "values"):
        if needed not in data:
            hint = " (or 'suits')" if needed == "cards" else ""
            raise AnalyzerError(f"{where}: missing {needed!r}{hint}")
    if isinstance(data[key], Mapping):
        drawn = distribution_from_table(data[key], where, key, "count", unknowns)
        for count in drawn:
            if count.denominator != 1 or not 0 <= count <= universe:
                raise AnalyzerError(
                    f"{where}: {key!r} counts are whole numbers from 0 to {universe}, got {count}"
                )
        cards = tuple(sorted((int(k), p) for k, p in drawn.items()))
    else:
        fixed = whole_number(data[key], where, repr(key), 0, universe)
        cards = ((fixed, Fraction(1)),)
    values = distribution_from_table(data["values"], where, "values", "multiplier", unknowns)
    for value in values:
        if not 0 < value <= MAX_MULTIPLIER:
            raise AnalyzerError(
                f"{where}: a multiplier must be more than 0 and at most {MAX_MULTIPLIER:,}, "
                f"got {value}"
            )
    cap = None
    if "cap" in data:
        cap = exact_number(data["cap"], where, "'cap'")
        if not 1 <= cap <= MAX_CAP:
            raise AnalyzerError(f"{where}: 'cap' must be from 1 to {MAX_CAP:,}, got {cap}")
    used = frozenset().union(
        *(p.used for p in [*(p for _, p in cards), *values.values()] if isinstance(p, Poly))
    )
    for name in unknowns if all_used else ():  # (else the paytable checks them all)
        if name not in used:
            raise AnalyzerError(f"{where}: the unknown {name!r} is in no probability")
    return Multipliers(
        cards, tuple(sorted(values.items())), cap, universe, unknowns=unknowns, by=by
    )


#: The special cards of one dealt round: card identity (rank, suit) -> its multiplier.
Specials = dict[tuple[int, int], Fraction]
#: The Lightning suits of one dealt round: suit index (0-3: S H D C) -> its multiplier.
SpecialSuits = dict[int, Fraction]


def parse_specials(text: str, model: Multipliers | None) -> Specials:
    """``"7S=8,AH=2"``: a round's special cards and their multipliers, as a table
    showed them. Each card must have a suit and appear once; each value must be one of the
    model's, and the number of cards one it can draw. (A model of Lightning suits takes
    :func:`parse_special_suits`.)"""
    if model is None:
        raise AnalyzerError("--special: this paytable has no [multipliers]")
    if model.by_suits:
        raise AnalyzerError(
            "--special: this paytable draws Lightning suits, not cards: write "
            "SUIT=MULTIPLIER, e.g. S=5"
        )
    specials: Specials = {}
    items = [item.strip() for item in text.split(",") if item.strip()]
    for item in items[: N_CARDS + 1]:
        card_text, equals, value_text = item.partition("=")
        if not equals:
            raise AnalyzerError(f"--special: {item[:20]!r}: write CARD=MULTIPLIER, e.g. 7S=8")
        if card_text.strip().upper() in SUITS:
            raise AnalyzerError(
                f"--special: {card_text.strip()} is a suit, but this paytable's specials are "
                "cards: write CARD=MULTIPLIER, e.g. 7S=8"
            )
        card = parse_card(card_text)
        identity = (card.rank, card.suit)
        if identity in specials:
            raise AnalyzerError(f"--special: {card} is given twice")
        specials[identity] = _special_value(model, str(card), value_text)
    _check_drawn(model, len(items), "special card")
    return specials


def parse_special_suits(text: str, model: Multipliers) -> SpecialSuits:
    """``"S=5"``: a round's Lightning suits (``S H D C``, case-insensitive) and their
    multipliers, as the table showed them, for a model of Lightning suits. Each suit must
    appear once; each value must be one of the model's, and the number of suits one it
    can draw.

    Examples
    --------
    >>> model = multipliers_from_table({"suits": 1, "values": {"2": "1/2", "8": "1/2"}}, "t")
    >>> parse_special_suits("h=8", model)
    {1: Fraction(8, 1)}
    """
    if not model.by_suits:
        raise AnalyzerError(
            "--special: this paytable's specials are cards, not Lightning suits: write "
            "CARD=MULTIPLIER, e.g. 7S=8"
        )
    suits: SpecialSuits = {}
    items = [item.strip() for item in text.split(",") if item.strip()]
    for item in items[: len(SUITS) + 1]:
        suit_text, equals, value_text = item.partition("=")
        if not equals:
            raise AnalyzerError(f"--special: {item[:20]!r}: write SUIT=MULTIPLIER, e.g. S=5")
        letter = suit_text.strip().upper()
        if not suit_text.isascii() or letter not in SUITS:  # (the long s upper-cases to S)
            raise AnalyzerError(
                f"--special: {suit_text.strip()[:20]!r} is not a suit (S, H, D or C): this "
                "paytable draws Lightning suits: write SUIT=MULTIPLIER, e.g. S=5"
            )
        suit = SUITS.index(letter)
        if suit in suits:
            raise AnalyzerError(f"--special: the suit {letter} is given twice")
        suits[suit] = _special_value(model, letter, value_text)
    _check_drawn(model, len(items), "Lightning suit")
    return suits


def suit_specials(suits: SpecialSuits) -> Specials:
    """A round's Lightning suits as its special cards: every card identity of a special
    suit carries the suit's multiplier (what :func:`round_multiplier` multiplies by)."""
    return {(rank, suit): value for suit, value in suits.items() for rank in range(N_RANKS)}


def _special_value(model: Multipliers, what: str, text: str) -> Fraction:
    """The multiplier ``text`` that ``--special`` gives ``what``: one of the model's."""
    value = exact_number(text.strip(), "--special", f"the multiplier of {what}")
    if value not in dict(model.values):
        shown = ", ".join(str(v) for v, _ in model.values)
        raise AnalyzerError(
            f"--special: {what}={text.strip()[:20]}: not a multiplier of this paytable ({shown})"
        )
    return value


def _check_drawn(model: Multipliers, given: int, what: str) -> None:
    """Refuse ``given`` specials (each a ``what``) where a round of the model never
    draws that many."""
    drawn = {k for k, p in model.cards if isinstance(p, Poly) or p}
    if given not in drawn:
        raise AnalyzerError(
            f"--special: {given} {what}{'' if given == 1 else 's'}, but a round draws "
            f"{', '.join(map(str, sorted(drawn)))}"
        )


def round_multiplier(
    model: Multipliers, counted: list[tuple[int, int]], specials: Specials
) -> Fraction:
    """The multiplier of a dealt round's counted cards: the product of the multipliers of
    those that are special (every copy again), capped."""
    product = math.prod((specials.get(card, Fraction(1)) for card in counted), start=Fraction(1))
    return product if model.cap is None else min(product, model.cap)


def parse_fee(value: object, where: str) -> Fraction:
    """``fee``: paid per unit staked on top of every bet, kept whatever the result."""
    fee = exact_number(value, where, "'fee'")
    if fee > MAX_FEE:
        raise AnalyzerError(f"{where}: 'fee' is per unit staked: at most {MAX_FEE}, got {fee}")
    return fee
