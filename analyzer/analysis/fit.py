"""What published figures allow of a paytable's unknowns.

A paytable may leave its multiplier distribution partly unknown (:mod:`analyzer.paytables.
unknowns`); every figure of a multiplied bet is then an exact polynomial ``F`` in the
unknowns (the symbolic exact analysis). A figure printed to some digits says that ``F``
lies in the interval of values that print so (:func:`~analyzer.paytables.printed.
printed_range`), and every probability of the model must lie in ``[0, 1]``: the unknowns
consistent with a claim are the points of the unknowns' box where those polynomial
inequalities hold, and with several claims, where all of them hold.

With one unknown the set is found exactly: between consecutive real roots of the
polynomials (isolated by sympy to any precision, rational roots exactly) every inequality
keeps its sign, so one rational point decides each piece. With several, a branch and bound
over boxes in exact interval arithmetic bounds the projection on each unknown from outside
(every consistent point is inside the bounds), and exact points found feasible prove the
set is not empty.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction

from analyzer.analysis.exact import analyze
from analyzer.errors import AnalyzerError
from analyzer.game.shoe import Shoe
from analyzer.paytables.claims import BET_FIGURES, Claim
from analyzer.paytables.model import Paytable
from analyzer.paytables.printed import printed_range, read_printed
from analyzer.paytables.unknowns import Poly, as_poly

#: Significant digits of an endpoint that is not a simple fraction (rounded outward).
DIGITS = 15
#: A fraction with a denominator up to this is shown as it is.
_SIMPLE_DENOMINATOR = 10**6
#: Boxes the branch and bound may split (for several unknowns) before it stops with the
#: bounds it has.
MAX_BOXES = 40_000
#: Figures fit solves: the bet figures of a claims file whose value the unknowns move.
FIT_FIGURES = tuple(BET_FIGURES)


@dataclass(frozen=True)
class Constraint:
    """``low <= poly <= high`` (``low`` or ``high`` None: unbounded on that side)."""

    poly: Poly
    low: Fraction | None
    high: Fraction | None

    def holds(self, point: dict[str, Fraction]) -> bool:
        value = self.poly.at(point)
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


@dataclass(frozen=True)
class Endpoint:
    """An end of an interval: exact (``value``), or bounded from outside by ``value``
    (an irrational root, or a bound of the branch and bound)."""

    value: Fraction
    exact: bool
    #: Significant digits shown where the end is not exact.
    digits: int = DIGITS

    def text(self, upper: bool) -> str:
        if self.exact and self.value.denominator <= _SIMPLE_DENOMINATOR:
            return str(self.value)
        return outward_decimal(self.value, upper, self.digits)


@dataclass(frozen=True)
class Interval:
    low: Endpoint
    high: Endpoint

    def text(self) -> str:
        return f"[{self.low.text(False)}, {self.high.text(True)}]"


@dataclass(frozen=True)
class FitResult:
    """The consistent values of each unknown (intervals whose union holds every
    consistent point; empty: none), and whether that set is proven nonempty."""

    intervals: dict[str, tuple[Interval, ...]]
    exact: bool
    #: Where the branch and bound stopped before reaching DIGITS, the digits it reached.
    digits: int | None = None

    @property
    def empty(self) -> bool:
        return not any(self.intervals.values())


@dataclass(frozen=True)
class FittedClaim:
    claim: Claim
    figure: str  # what the claim states, for people
    constraint: Constraint | None  # None: the claim's figure does not move with the unknowns
    consistent: bool | None  # for a figure the unknowns do not move: does it print so?
    result: FitResult | None = None


def outward_decimal(value: Fraction, upper: bool, digits: int = DIGITS) -> str:
    """``value`` as a decimal of ``digits`` significant digits, rounded away from the
    inside of the interval it bounds (up for an upper end, down for a lower one)."""
    with localcontext() as context:
        context.prec = digits
        context.rounding = ROUND_CEILING if upper else ROUND_FLOOR
        number = Decimal(value.numerator) / Decimal(value.denominator)
    return format(number.normalize(), "f") if number else "0"


def _box_of(paytable: Paytable) -> dict[str, tuple[Fraction, Fraction]]:
    return {name: (low, high) for name, low, high in paytable.unknowns}


def model_constraints(paytable: Paytable) -> list[Constraint]:
    """Every probability of the multipliers in [0, 1] (only those that move)."""
    names = tuple(name for name, _, _ in paytable.unknowns)
    return [
        Constraint(as_poly(p, names), Fraction(0), Fraction(1))
        for p in paytable.multipliers.probabilities
        if isinstance(p, Poly)
    ]


def claim_constraints(paytable: Paytable, claims: Sequence[Claim]) -> list[FittedClaim]:
    """Each claim as a polynomial constraint on the unknowns (exact analyses shared by
    claims of one shoe)."""
    names = tuple(name for name, _, _ in paytable.unknowns)
    analyses: dict[tuple, object] = {}
    out = []
    for claim in claims:
        where = f"claim {claim.number}"
        if claim.quantity not in FIT_FIGURES:
            out.append(FittedClaim(claim, claim.quantity, None, None))
            continue
        if claim.session or claim.effect_of:
            raise AnalyzerError(f"{where}: fit solves figures of one round of a shoe")
        decks = paytable.decks if claim.decks is None else claim.decks
        key = (decks, claim.remove)
        if key not in analyses:
            shoe = Shoe.standard(decks).remove(list(claim.remove))
            analyses[key] = analyze(paytable=paytable, shoe=shoe, symbolic=True)
        analysis = analyses[key]
        result = analysis.result(claim.bet, claim.mode)  # type: ignore[attr-defined]
        value = getattr(result, BET_FIGURES[claim.quantity])
        if value is None:
            raise AnalyzerError(f"{where}: the bet {claim.bet!r} has no {claim.quantity}")
        printed = read_printed(claim.value, claim.digits)
        low, high = printed_range(printed, claim.rounding, claim.scale)
        if claim.quantity == "std_dev":  # the root of the variance prints so
            low, high = max(low, Fraction(0)) ** 2, high**2
        figure = f"{claim.bet} {claim.quantity} {claim.value}"
        if not isinstance(value, Poly) or value.is_constant:
            number = value.value if isinstance(value, Poly) else value
            out.append(FittedClaim(claim, figure, None, low <= number <= high))
            continue
        out.append(FittedClaim(claim, figure, Constraint(as_poly(value, names), low, high), None))
    return out


def fit(paytable: Paytable, claims: Sequence[Claim]) -> tuple[list[FittedClaim], FitResult]:
    """Each claim's consistent unknowns, and all claims' together."""
    if not paytable.unknowns:
        raise AnalyzerError(
            f"{paytable.source} has no [unknowns]: fit solves for them (check its figures "
            "with verify)"
        )
    box = _box_of(paytable)
    model = model_constraints(paytable)
    fitted = claim_constraints(paytable, claims)
    solved = []
    for item in fitted:
        if item.constraint is not None:
            result = solve([*model, item.constraint], box)
            item = FittedClaim(item.claim, item.figure, item.constraint, None, result)
        solved.append(item)
    together = [c.constraint for c in fitted if c.constraint is not None]
    if any(c.consistent is False for c in fitted):
        combined = FitResult({name: () for name in box}, True)
    else:
        combined = solve([*model, *together], box)
    return solved, combined


def solve(constraints: Sequence[Constraint], box: dict[str, tuple[Fraction, Fraction]]):
    """The points of ``box`` where every constraint holds, projected on each unknown."""
    if len(box) == 1:
        return _solve_one(constraints, box)
    return _branch_and_bound(constraints, box)


# -- One unknown: exact ------------------------------------------------------------------


def _sympy_poly(poly: Poly):
    import sympy

    x = sympy.Symbol("x")
    expression = sum(
        (sympy.Rational(c.numerator, c.denominator) * x ** m[0] for m, c in poly.terms),
        sympy.Integer(0),
    )
    return sympy.Poly(expression, x, domain="QQ")


def _roots(poly: Poly, low: Fraction, high: Fraction) -> list[tuple[Fraction, Fraction]]:
    """Isolating intervals ``(a, b)`` of the real roots of ``poly`` in [low, high], each at
    most 1e-40 of the range wide; ``a == b`` for a rational root."""
    if poly.is_constant:
        return []
    import sympy

    eps = sympy.Rational(1, 10**40) * sympy.Rational(
        (high - low).numerator, (high - low).denominator
    )
    found = _sympy_poly(poly).intervals(
        inf=sympy.Rational(low.numerator, low.denominator),
        sup=sympy.Rational(high.numerator, high.denominator),
        eps=eps,
    )
    return [(Fraction(str(a)), Fraction(str(b))) for (a, b), _ in found]


def _solve_one(constraints: Sequence[Constraint], box) -> FitResult:
    ((name, (low, high)),) = box.items()
    cuts: list[tuple[Fraction, Fraction]] = [(low, low), (high, high)]
    for c in constraints:
        for bound in (c.low, c.high):
            if bound is not None:
                cuts += _roots(c.poly - bound, low, high)
    cuts = sorted(set(cuts))
    merged: list[list[Fraction]] = []
    for a, b in cuts:  # overlapping isolating intervals of one root of two polynomials
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    pieces: list[Interval] = []
    for (a0, b0), (a1, b1) in itertools.pairwise(merged):
        middle = (b0 + a1) / 2
        if not all(c.holds({name: middle}) for c in constraints):
            continue
        start = Endpoint(a0, a0 == b0)
        end = Endpoint(b1, a1 == b1)
        if pieces and pieces[-1].high.value >= a0:  # one feasible stretch across a root
            pieces[-1] = Interval(pieces[-1].low, end)
        else:
            pieces.append(Interval(start, end))
    # A feasible point alone (a double root touching a bound) is measure zero: a printed
    # figure's interval has width, so its set has too unless it is empty.
    return FitResult({name: tuple(pieces)}, True)


# -- Several unknowns: branch and bound in outward-rounded interval arithmetic ---------
#
# Boxes and bounds are doubles; every operation's result is widened by one unit in the
# last place each way (IEEE arithmetic rounds correctly, so the true result lies within
# it), which keeps every computed range around the true one. A polynomial's range over a
# box is its value at the centre plus the gradient's range times the half-widths (the
# mean-value form), which tightens as boxes shrink.

#: Significant digits the branch and bound aims for (doubles carry about 16).
BOX_DIGITS = 12
_DOWN, _UP = -math.inf, math.inf


def _lo(x: float) -> float:
    return math.nextafter(x, _DOWN)


def _hi(x: float) -> float:
    return math.nextafter(x, _UP)


def _iv(value: Fraction) -> tuple[float, float]:
    """A double interval holding ``value`` exactly."""
    near = float(value)
    return (
        near if Fraction(near) <= value else _lo(near),
        near if Fraction(near) >= value else _hi(near),
    )


def _iv_mul(a, b):
    products = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
    return _lo(min(products)), _hi(max(products))


def _iv_add(a, b):
    return _lo(a[0] + b[0]), _hi(a[1] + b[1])


@dataclass(frozen=True)
class _Compiled:
    """A polynomial's terms with double-interval coefficients, and its gradient's."""

    terms: tuple[tuple[tuple[float, float], tuple[int, ...]], ...]
    gradient: tuple[tuple[tuple[tuple[float, float], tuple[int, ...]], ...], ...]

    @classmethod
    def of(cls, poly: Poly) -> _Compiled:
        def terms(p: Poly):
            return tuple((_iv(c), m) for m, c in p.terms)

        gradient = []
        for axis in range(len(poly.names)):
            derivative: dict[tuple[int, ...], Fraction] = {}
            for m, c in poly.terms:
                if m[axis]:
                    key = (*m[:axis], m[axis] - 1, *m[axis + 1 :])
                    derivative[key] = derivative.get(key, Fraction(0)) + c * m[axis]
            gradient.append(tuple((_iv(c), m) for m, c in derivative.items() if c))
        return cls(terms(poly), tuple(gradient))


def _evaluate(terms, box) -> tuple[float, float]:
    total = (0.0, 0.0)
    for coefficient, monomial in terms:
        term = coefficient
        for (a, b), power in zip(box, monomial, strict=True):
            for _ in range(power):
                term = _iv_mul(term, (a, b))
        total = _iv_add(total, term)
    return total


def _range_of(compiled: _Compiled, box) -> tuple[float, float]:
    centre = [((a + b) / 2, (a + b) / 2) for a, b in box]
    value = _evaluate(compiled.terms, centre)
    for axis, derivative in enumerate(compiled.gradient):
        if not derivative:
            continue
        slope = _evaluate(derivative, box)
        a, b = box[axis]
        half = _hi((b - a) / 2)
        value = _iv_add(value, _iv_mul(slope, (-half, half)))
    direct = _evaluate(compiled.terms, box)
    return max(value[0], direct[0]), min(value[1], direct[1])


def _branch_and_bound(constraints: Sequence[Constraint], box) -> FitResult:
    names = list(box)
    start = [(_iv(box[name][0])[0], _iv(box[name][1])[1]) for name in names]
    compiled = [
        (_Compiled.of(c.poly), -math.inf if c.low is None else _iv(c.low)[0],
         math.inf if c.high is None else _iv(c.high)[1])
        for c in constraints
    ]  # fmt: skip
    widths = [b - a for a, b in start]
    intervals: dict[str, tuple[Interval, ...]] = {}
    feasible = False
    worst = BOX_DIGITS
    for axis, name in enumerate(names):
        ends = []
        for upper in (False, True):
            bound, point, digits = _extreme(constraints, compiled, start, axis, upper, widths)
            if bound is None:
                return FitResult({n: () for n in names}, True)
            ends.append(Fraction(bound))
            worst = min(worst, digits)
            feasible = feasible or point is not None
        low, high = (Endpoint(end, False, BOX_DIGITS) for end in ends)
        intervals[name] = (Interval(low, high),)
    return FitResult(intervals, feasible, None if worst >= BOX_DIGITS else worst)


def _out(compiled, box) -> bool:
    """Can no point of the box satisfy every constraint?"""
    for poly, low, high in compiled:
        a, b = _range_of(poly, box)
        if b < low or a > high:
            return True
    return False


def _extreme(constraints, compiled, start, axis, upper, widths):
    """An outer bound on the largest (``upper``) or smallest value of coordinate ``axis``
    over the feasible set, an exactly feasible point if one was met, and the digits of
    the bound reached."""
    target = 10.0**-BOX_DIGITS
    sign = -1 if upper else 1
    counter = 0
    # Best edge first; among equal edges the smallest box (the deepest split), so that
    # one path reaches the target width instead of every box at an edge being split.
    heap = [(sign * (start[axis][1] if upper else start[axis][0]), 0, counter, start)]
    found = None
    boxes = 0
    while heap:
        _, depth, _, current = heapq.heappop(heap)
        if _out(compiled, current):
            continue
        edge = current[axis][1] if upper else current[axis][0]
        if found is None:
            point = {
                name: Fraction((a + b) / 2)
                for name, (a, b) in zip(_names(constraints), current, strict=True)
            }
            if all(c.holds(point) for c in constraints):
                found = point
        scaled = [(b - a) / w for (a, b), w in zip(current, widths, strict=True)]
        if scaled[axis] <= target or boxes >= MAX_BOXES:
            # The best box left: every consistent point lies within its edge.
            return edge, found, BOX_DIGITS if scaled[axis] <= target else _digits(scaled[axis])
        boxes += 1
        split = max(range(len(current)), key=lambda i: scaled[i])
        a, b = current[split]
        half = (a + b) / 2
        for part in ((a, half), (half, b)):
            child = [*current[:split], part, *current[split + 1 :]]
            counter += 1
            child_edge = child[axis][1] if upper else child[axis][0]
            heapq.heappush(heap, (sign * child_edge, depth - 1, counter, child))
    return None, None, BOX_DIGITS


def _names(constraints: Sequence[Constraint]) -> tuple[str, ...]:
    return constraints[0].poly.names


def _digits(width: float) -> int:
    return max(0, math.floor(-math.log10(width))) if width > 0 else BOX_DIGITS
