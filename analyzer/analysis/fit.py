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

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, Inexact, localcontext
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

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
#: Figures fit solves: the bet figures of a claims file whose value the unknowns move, and
#: the game's maximum RTP (the largest of its bets').
FIT_FIGURES = (*BET_FIGURES, "max_rtp")
#: The most sets of constraints fit solves for all claims together (a maximum RTP claim is
#: one set per bet, and several such claims multiply): refused before any work beyond it.
MAX_SETS = 256


@dataclass(frozen=True)
class Constraint:
    """``low <= poly <= high`` (``low`` or ``high`` None: unbounded on that side); an end
    not ``closed`` is left out (``low < poly``): a printed figure's rounding takes one
    end of its interval and not the other (:func:`~analyzer.paytables.printed.
    printed_range`)."""

    poly: Poly
    low: Fraction | None
    high: Fraction | None
    low_closed: bool = True
    high_closed: bool = True

    def holds(self, point: dict[str, Fraction], closure: bool = False) -> bool:
        """Does the constraint hold at ``point`` (with ``closure``, with both ends in)?"""
        value = self.poly.at(point)
        above = (
            self.low is None
            or value > self.low
            or (value == self.low and (closure or self.low_closed))
        )
        below = (
            self.high is None
            or value < self.high
            or (value == self.high and (closure or self.high_closed))
        )
        return above and below

    @property
    def closed(self) -> bool:
        return self.low_closed and self.high_closed


@dataclass(frozen=True)
class Endpoint:
    """An end of an interval: exact (``value``), or bounded from outside by ``value``
    (an irrational root, or a bound of the branch and bound); ``closed``: the end is a
    consistent point (else only the points short of it are: a printed figure's interval
    leaves one end out, which the claim's figure reaches there)."""

    value: Fraction
    exact: bool
    #: Significant digits shown where the end is not exact.
    digits: int = DIGITS
    closed: bool = True

    def text(self, upper: bool) -> str:
        if self.exact and self.value.denominator <= _SIMPLE_DENOMINATOR:
            return str(self.value)
        return outward_decimal(self.value, upper, self.digits)

    def shown_closed(self, upper: bool) -> bool:
        """Is the end as :meth:`text` shows it a consistent value? Only a closed end shown
        exactly is: a decimal rounded outward is past the set's end."""
        return self.closed and self.exact and Fraction(self.text(upper)) == self.value


@dataclass(frozen=True)
class Interval:
    low: Endpoint
    high: Endpoint

    def text(self) -> str:
        opening = "[" if self.low.shown_closed(False) else "("
        closing = "]" if self.high.shown_closed(True) else ")"
        return f"{opening}{self.low.text(False)}, {self.high.text(True)}{closing}"


@dataclass(frozen=True)
class FitResult:
    """The consistent values of each unknown (intervals whose union holds every
    consistent point; empty: none), and whether that set is proven nonempty."""

    intervals: dict[str, tuple[Interval, ...]]
    exact: bool
    #: Where the branch and bound stopped before reaching DIGITS, the digits it reached.
    digits: int | None = None
    #: A point where every constraint holds, checked exactly (None: none met).
    witness: dict[str, Fraction] | None = None

    @property
    def empty(self) -> bool:
        return not any(self.intervals.values())


@dataclass(frozen=True)
class FittedClaim:
    """A claim as constraints on the unknowns: it holds where every constraint of one of
    its ``alternatives`` does (one alternative of one constraint for a bet's figure; for
    the game's maximum RTP, one per bet: that bet's RTP prints as claimed and none is
    above the printed range). None: the claim's figure does not move with the unknowns,
    and ``consistent`` says whether it prints so."""

    claim: Claim
    figure: str  # what the claim states, for people
    alternatives: tuple[tuple[Constraint, ...], ...] | None
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


def simplest_between(low: Fraction, high: Fraction) -> Fraction:
    """The fraction of smallest denominator strictly between ``low < high``, by continued
    fractions: an integer if one lies inside, else ``floor + 1/y`` for the simplest ``y``
    between the reciprocals."""
    floor = math.floor(low)
    if floor + 1 < high:
        return Fraction(floor + 1)
    a, b = low - floor, high - floor  # 0 <= a < b <= 1
    y = Fraction(math.floor(1 / b) + 1) if a == 0 else simplest_between(1 / b, 1 / a)
    return floor + 1 / y


def simplest_within(low: Fraction, high: Fraction) -> Fraction:
    """The fraction of smallest denominator in ``[low, high]`` (an end, where it is)."""
    if low == high:
        return low
    return min((simplest_between(low, high), low, high), key=lambda value: value.denominator)


def simple_witness(
    constraints: Sequence[Constraint],
    box: dict[str, tuple[Fraction, Fraction]],
    point: dict[str, Fraction],
) -> dict[str, Fraction]:
    """A point where every constraint holds, checked exactly, as simple as one near
    ``point`` (such a point, a float's exact value, say) can be: in boxes about it half,
    a quarter, an eighth... of each unknown's range wide, the simplest fraction of each
    unknown's side, the first such point found feasible; ``point`` itself where none is."""
    for halvings in range(1, 64):
        candidate = {}
        for name, value in point.items():
            low, high = box[name]
            reach = (high - low) / 2**halvings
            candidate[name] = simplest_within(max(low, value - reach), min(high, value + reach))
        if all(c.holds(candidate) for c in constraints):
            return candidate
    return point


def decimal_note(value: Fraction, digits: int = DIGITS) -> str:
    """A fraction's decimal, for people, beside the exact fraction: ``""`` for an integer,
    ``"0.125"`` where it is exact in ``digits`` significant digits, else ``"about ..."``."""
    if value.denominator == 1:
        return ""
    with localcontext() as context:
        context.prec = digits
        context.clear_flags()
        number = Decimal(value.numerator) / Decimal(value.denominator)
        exact = not context.flags[Inexact]
    shown = format(number.normalize(), "f")
    return shown if exact else f"about {shown}"


def box_of(paytable: Paytable) -> dict[str, tuple[Fraction, Fraction]]:
    """Each unknown of ``paytable`` and its declared range.

    Parameters
    ----------
    paytable : Paytable
        A paytable with ``[unknowns]``.

    Returns
    -------
    dict
        Each unknown's name -> ``(low, high)``, exact.

    Examples
    --------
    >>> from analyzer import load_paytable
    >>> box_of(load_paytable("prosperity-tree-baccarat"))
    {'p': (Fraction(0, 1), Fraction(1, 1))}
    """
    return {name: (low, high) for name, low, high in paytable.unknowns}


def model_constraints(paytable: Paytable) -> list[Constraint]:
    """Every probability of the multipliers, or of a decision's cards shown, in [0, 1]
    (only those that move)."""
    names = tuple(name for name, _, _ in paytable.unknowns)
    return [
        Constraint(as_poly(p, names), Fraction(0), Fraction(1))
        for p in paytable.probabilities
        if isinstance(p, Poly)
    ]


def claim_constraints(
    paytable: Paytable,
    claims: Sequence[Claim],
    analysis_of: Callable[[Claim], Any] | None = None,
) -> list[FittedClaim]:
    """Each claim as constraints on the unknowns (exact analyses shared by claims of one
    shoe). ``analysis_of`` gives a claim's analysis in the unknowns instead (``verify``
    passes its own, on the shoe its options impose)."""
    names = tuple(name for name, _, _ in paytable.unknowns)
    zero = dict.fromkeys(names, Fraction(0))
    analyses: dict[tuple, Any] = {}
    out = []
    for claim in claims:
        where = f"claim {claim.number}"
        if claim.quantity not in FIT_FIGURES:
            shown = [claim.bet or "", claim.quantity]
            if isinstance(claim.value, str):
                shown.append(claim.value)
            out.append(FittedClaim(claim, " ".join(filter(None, shown)), None, None))
            continue
        if claim.session or claim.effect_of:
            raise AnalyzerError(f"{where}: fit solves figures of one round of a shoe")
        if claim.decks_over:
            raise AnalyzerError(
                f"{where}: fit solves a figure of one shoe; a figure across deck counts is "
                "checked at values of the unknowns (verify --unknowns)"
            )
        if claim.printed == "float":
            raise AnalyzerError(
                f'{where}: fit solves figures printed in decimal; a figure printed = "float" '
                "is checked at values of the unknowns (verify --unknowns)"
            )
        if analysis_of is not None:
            analysis = analysis_of(claim)
        else:
            decks = paytable.decks if claim.decks is None else claim.decks
            key = (decks, claim.remove)
            if key not in analyses:
                shoe = Shoe.standard(decks)
                if claim.remove:
                    shoe = shoe.remove(list(claim.remove))
                analyses[key] = analyze(paytable=paytable, shoe=shoe, symbolic=True)
            analysis = analyses[key]
        printed = read_printed(claim.value, claim.digits)
        low, high, low_closed, high_closed = printed_range(printed, claim.rounding, claim.scale)
        if claim.quantity == "max_rtp":
            figure = f"max_rtp {claim.value}"
            values = _every_rtp(analysis, where)
        else:
            result = analysis.result(claim.bet, claim.mode)
            value = getattr(result, BET_FIGURES[claim.quantity])
            if value is None:
                raise AnalyzerError(f"{where}: the bet {claim.bet!r} has no {claim.quantity}")
            figure = f"{claim.bet} {claim.quantity} {claim.value}"
            values = [value]
            if claim.quantity == "std_dev":  # the root of the variance prints so
                if low < 0:
                    low, low_closed = Fraction(0), True
                low, high = low**2, high**2
        if claim.decks is not None or claim.remove:
            figure += f" ({analysis.shoe.describe()})"
        polys = [as_poly(value, names) for value in values]
        if len(polys) == 1:  # one bet's figure: one constraint
            (poly,) = polys
            constraint = Constraint(poly, low, high, low_closed, high_closed)
            if poly.is_constant:
                out.append(FittedClaim(claim, figure, None, constraint.holds(zero)))
            else:
                out.append(FittedClaim(claim, figure, ((constraint,),), None))
            continue
        # Each bet its own alternative: its RTP prints as claimed and none is above the
        # printed range.
        above = [Constraint(poly, None, high, True, high_closed) for poly in polys]
        alternatives = []
        for poly in polys:
            reaches = Constraint(poly, low, None, low_closed, True)
            kept = [c for c in (reaches, *above) if not c.poly.is_constant]
            if all(c.holds(zero) for c in (reaches, *above) if c.poly.is_constant):
                alternatives.append(tuple(dict.fromkeys(kept)))
        if not alternatives or all(poly.is_constant for poly in polys):
            out.append(FittedClaim(claim, figure, None, bool(alternatives)))
            continue
        if () in alternatives:  # a fixed bet reaches the range: the rest only bound it
            alternatives = [tuple(c for c in above if not c.poly.is_constant)]
        out.append(FittedClaim(claim, figure, tuple(dict.fromkeys(alternatives)), None))
    return out


def _every_rtp(analysis: Any, where: str) -> list[Fraction | Poly]:
    """The RTP of every bet and mode of ``analysis`` (the game's maximum RTP is the
    largest): each must be computable."""
    for bet, mode, why in analysis.unavailable:
        raise AnalyzerError(
            f"{where}: the maximum RTP needs every bet, and {bet!r} ({mode}) cannot be "
            f"computed exactly here: {why}"
        )
    return [result.rtp for result in analysis.results]


def solve_any(
    constraints: Sequence[Constraint],
    alternatives: Sequence[Sequence[Constraint]],
    box: dict[str, tuple[Fraction, Fraction]],
) -> FitResult:
    """The points where ``constraints`` and one of ``alternatives`` hold: each solved
    alone, the union's intervals merged.

    Parameters
    ----------
    constraints : sequence of Constraint
        What every point must meet (the model's probabilities in [0, 1]).
    alternatives : sequence of sequences of Constraint
        A claim's alternatives: a point meets the claim where it meets one of them.
    box : dict
        Each unknown -> its declared range.

    Returns
    -------
    FitResult
        The consistent values of each unknown, and a point checked exactly if one is met.

    Examples
    --------
    >>> from analyzer.paytables.unknowns import Poly
    >>> x = Poly.variable(("x",), "x")
    >>> half = Constraint(x, Fraction(1, 2), None)
    >>> solve_any([], [[half]], {"x": (Fraction(0), Fraction(1))}).intervals["x"][0].text()
    '[1/2, 1]'
    """
    results = [solve([*constraints, *alternative], box) for alternative in alternatives]
    if len(results) == 1:
        return results[0]
    intervals = {}
    for name in box:
        pieces = sorted(
            (piece for result in results for piece in result.intervals[name]),
            key=lambda piece: (piece.low.value, not piece.low.closed),
        )
        merged: list[Interval] = []
        for piece in pieces:
            last = merged[-1] if merged else None
            if last is not None and (
                piece.low.value < last.high.value
                or (piece.low.value == last.high.value and (piece.low.closed or last.high.closed))
            ):
                high = max(last.high, piece.high, key=lambda end: (end.value, end.closed))
                merged[-1] = Interval(last.low, high)
            else:
                merged.append(piece)
        intervals[name] = tuple(merged)
    found = [result for result in results if not result.empty]
    digits = [result.digits for result in found if result.digits is not None]
    return FitResult(
        intervals,
        all(result.exact for result in found),
        min(digits) if digits else None,
        next((result.witness for result in found if result.witness is not None), None),
    )


def fit(
    paytable: Paytable, claims: Sequence[Claim], progress: Callable[[], None] | None = None
) -> tuple[list[FittedClaim], FitResult]:
    """Each claim's consistent unknowns, and all claims' together (``progress`` is called
    after each set is solved)."""
    if not paytable.unknowns:
        raise AnalyzerError(
            f"{paytable.source} has no [unknowns]: fit solves for them (check its figures "
            "with verify)"
        )
    box = box_of(paytable)
    model = model_constraints(paytable)
    fitted = claim_constraints(paytable, claims)
    moving = [item.alternatives for item in fitted if item.alternatives is not None]
    sets = math.prod(len(alternatives) for alternatives in moving)
    if sets > MAX_SETS:
        raise AnalyzerError(
            f"the claims together are {sets:,} sets of constraints to solve (each maximum "
            f"RTP claim is one per bet), at most {MAX_SETS}: fit fewer maximum RTP claims "
            "at a time"
        )
    solved = []
    for item in fitted:
        if item.alternatives is not None:
            result = solve_any(model, item.alternatives, box)
            item = FittedClaim(item.claim, item.figure, item.alternatives, None, result)
            if progress is not None:
                progress()
        solved.append(item)
    if any(c.consistent is False for c in fitted):
        combined = FitResult({name: () for name in box}, True)
    else:
        combined = solve_any(
            model,
            [sum(chosen, ()) for chosen in itertools.product(*moving)],
            box,
        )
    return solved, combined


def claims_to_fit(
    spec: str | Path, paytable: Paytable | None = None
) -> tuple[Paytable, list[Claim]]:
    """The claims file ``spec`` (a path, or a shipped claims file's name) and the paytable
    its claims name (or ``paytable``, in its place). Raises :class:`AnalyzerError` where
    the claims name several paytables."""
    from analyzer.paytables.claims import load_claims
    from analyzer.paytables.library import load_paytable

    claims = load_claims(spec)
    if len({claim.paytable for claim in claims}) > 1:
        raise AnalyzerError("fit solves one paytable's unknowns: the claims name several")
    if paytable is None:
        paytable = load_paytable(claims[0].paytable)
    return paytable, claims


def sets_to_solve(claims: Sequence[Claim]) -> int:
    """How many sets :func:`fit` solves for ``claims``: one per claim of a figure fit
    solves, and all of them together."""
    return sum(claim.quantity in FIT_FIGURES for claim in claims) + 1


def fit_record(result: FitResult) -> dict[str, Any]:
    """One set of consistent unknowns as JSON shows it: each unknown's intervals (ends as
    text, rounded outward), whether any point is consistent, whether every end is exact,
    the digits reached and the witness point (fractions as text)."""
    return {
        "intervals": {
            name: [[piece.low.text(False), piece.high.text(True)] for piece in pieces]
            for name, pieces in result.intervals.items()
        },
        "closed": {
            name: [
                [piece.low.shown_closed(False), piece.high.shown_closed(True)] for piece in pieces
            ]
            for name, pieces in result.intervals.items()
        },
        "consistent": not result.empty,
        "exact": result.exact
        and all(
            piece.low.exact and piece.high.exact
            for pieces in result.intervals.values()
            for piece in pieces
        ),
        "digits": result.digits,
        "witness": None
        if result.witness is None
        else {name: str(value) for name, value in result.witness.items()},
    }


def fit_report(paytable: Paytable, each: list[FittedClaim], together: FitResult) -> dict:
    """The whole fit as JSON shows it: the paytable, its unknowns' ranges, each claim's
    set (or, for a figure the unknowns do not move, whether it prints so) and all of
    them together."""
    return {
        "paytable": paytable.name,
        "unknowns": {name: f"{low}..{high}" for name, low, high in paytable.unknowns},
        "claims": [
            {"claim": item.claim.number, "figure": item.figure}
            | (
                fit_record(item.result)
                if item.result is not None
                else {"consistent": item.consistent, "moved_by_unknowns": False}
            )
            for item in each
        ],
        "together": fit_record(together),
    }


def fit_rows(
    paytable: Paytable, each: list[FittedClaim], together: FitResult
) -> list[dict[str, str]]:
    """The fit as the text table shows it: a row per claim and one for all of them
    (``claim`` ``"all"``), each with its figure and, per unknown, the intervals allowed
    (``none``: no value; ``any``: a figure the unknowns do not move, which prints so)."""
    unknowns = [name for name, _, _ in paytable.unknowns]
    rows = []
    for item in each:
        row = {"claim": str(item.claim.number), "figure": item.figure}
        for name in unknowns:
            if item.result is not None:
                row[name] = _cell(item.result, name)
            elif item.consistent is None:
                row[name] = "(fit does not solve it: verify checks it)"
            else:
                row[name] = "any" if item.consistent else "none"
        rows.append(row)
    rows.append({"claim": "all", "figure": ""} | {n: _cell(together, n) for n in unknowns})
    return rows


def _cell(result: FitResult, name: str) -> str:
    pieces = result.intervals[name]
    return " or ".join(piece.text() for piece in pieces) if pieces else "none"


def set_text(result: FitResult, box: dict[str, tuple[Fraction, Fraction]]) -> str:
    """A set of consistent unknowns in one line, as ``verify`` shows it: each unknown and
    its intervals (``p in (0.0598, 0.0656)``), or ``none``.

    Examples
    --------
    >>> empty = FitResult({"p": ()}, True)
    >>> set_text(empty, {"p": (Fraction(0), Fraction(1))})
    'none'
    """
    if result.empty:
        return "none"
    return ", ".join(f"{name} in {_cell(result, name)}" for name in box)


def solve(constraints: Sequence[Constraint], box: dict[str, tuple[Fraction, Fraction]]):
    """The points of ``box`` where every constraint holds, projected on each unknown."""
    if len(box) == 1:
        return _solve_one(constraints, box)
    if all(c.poly.degree <= 1 for c in constraints):
        return _solve_linear(constraints, box)
    return _branch_and_bound(constraints, box)


# -- Linear constraints: exact, by the vertices of the polytope ----------------------------
#
# Where every figure is linear in the unknowns (a mixture's chances: Peek Baccarat's cards
# shown, a Lightning suit's multiplier weights), the consistent points are a polytope in
# the box: convex and bounded, so its projection on each unknown is the interval between
# its vertices' least and greatest values. Every vertex is where some n of the bounding
# planes meet (n unknowns): each such n is solved exactly (Fractions) and kept if every
# constraint holds there. A few dozen planes and three unknowns are some thousand small
# systems, milliseconds; no rounding, and an empty set is proven empty.
#
# A printed figure's interval leaves one end out, so the set is the polytope less some of
# its faces. The vertices are the closed polytope's; a point of the polytope's relative
# interior (the mean of its vertices) is in the set unless a left-out plane holds all of
# it, and then no point is. Likewise an unknown's least value is one of the set's exactly
# where the face of the polytope at that value (the hull of the vertices there) has its
# vertices' mean in the set.


def _solve_linear(
    constraints: Sequence[Constraint], box: dict[str, tuple[Fraction, Fraction]]
) -> FitResult:
    names = list(box)
    n = len(names)
    planes: list[tuple[list[Fraction], Fraction]] = []
    for i, name in enumerate(names):
        unit = [Fraction(int(j == i)) for j in range(n)]
        planes += [(unit, box[name][0]), (unit, box[name][1])]
    for c in constraints:
        coefficients, constant = _linear(c.poly, names)
        for bound in (c.low, c.high):
            if bound is not None and any(coefficients):
                planes.append((coefficients, bound - constant))
    vertices = set()
    for chosen in itertools.combinations(planes, n):
        point = _meet([row for row, _ in chosen], [value for _, value in chosen])
        if point is None:
            continue
        at = dict(zip(names, point, strict=True))
        inside = all(box[name][0] <= at[name] <= box[name][1] for name in names)
        if inside and all(c.holds(at, closure=True) for c in constraints):
            vertices.add(point)

    def mean_holds(face: list[tuple[Fraction, ...]]) -> bool:
        mean = [sum(column) / len(face) for column in zip(*face, strict=True)]
        return all(c.holds(dict(zip(names, mean, strict=True))) for c in constraints)

    if not vertices or not mean_holds(list(vertices)):
        return FitResult({name: () for name in names}, True)
    intervals = {}
    for i, name in enumerate(names):
        ends = []
        for value in (min(v[i] for v in vertices), max(v[i] for v in vertices)):
            ends.append(
                Endpoint(value, True, closed=mean_holds([v for v in vertices if v[i] == value]))
            )
        intervals[name] = (Interval(*ends),)
    # The vertices' mean is inside (the set is convex): simplified near it, checked exactly.
    centre = {name: sum(v[i] for v in vertices) / len(vertices) for i, name in enumerate(names)}
    return FitResult(intervals, True, witness=simple_witness(constraints, box, centre))


def _linear(poly: Poly, names: list[str]) -> tuple[list[Fraction], Fraction]:
    """A polynomial of degree at most one as its coefficients (in ``names``' order) and
    its constant term."""
    coefficients = [Fraction(0)] * len(names)
    constant = Fraction(0)
    for exponents, value in poly.terms:
        if not any(exponents):
            constant += value
        else:
            coefficients[names.index(poly.names[exponents.index(1)])] += value
    return coefficients, constant


def _meet(rows: list[list[Fraction]], values: list[Fraction]) -> tuple[Fraction, ...] | None:
    """The one point where ``rows . x = values`` (Gaussian elimination, exact), or None
    where the planes do not meet in one point."""
    n = len(rows)
    matrix = [[*row, value] for row, value in zip(rows, values, strict=True)]
    for column in range(n):
        pivot = next((r for r in range(column, n) if matrix[r][column]), None)
        if pivot is None:
            return None
        matrix[column], matrix[pivot] = matrix[pivot], matrix[column]
        for r in range(n):
            if r != column and matrix[r][column]:
                factor = matrix[r][column] / matrix[column][column]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[column], strict=True)]
    return tuple(matrix[i][n] / matrix[i][i] for i in range(n))


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
    # Each cut: an isolating interval of a root, and whether the bound it is a root of is
    # left out (a printed figure's open end), which leaves the root out.
    cuts: list[tuple[Fraction, Fraction, bool]] = [(low, low, False), (high, high, False)]
    for c in constraints:
        for bound, closed in ((c.low, c.low_closed), (c.high, c.high_closed)):
            if bound is not None:
                cuts += [(a, b, not closed) for a, b in _roots(c.poly - bound, low, high)]
    cuts = sorted(set(cuts))
    merged: list[list] = []
    for a, b, out in cuts:  # overlapping isolating intervals of one root of two polynomials
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
            merged[-1][2] = merged[-1][2] or out
        else:
            merged.append([a, b, out])

    def in_set(a: Fraction, b: Fraction, out: bool) -> bool:
        """Is the root isolated in [a, b] a consistent point? A rational root is checked
        exactly; an irrational one is a root of a bound (every other constraint keeps its
        sign about it), in unless that bound is left out."""
        return all(c.holds({name: a}) for c in constraints) if a == b else not out

    pieces: list[Interval] = []
    witness = None
    for (a0, b0, out0), (a1, b1, out1) in itertools.pairwise(merged):
        middle = (b0 + a1) / 2
        if not all(c.holds({name: middle}) for c in constraints):
            continue
        if witness is None:  # the simplest fraction of the piece, checked exactly
            simple = simplest_between(b0, a1)
            witness = {
                name: simple if all(c.holds({name: simple}) for c in constraints) else middle
            }
        start = Endpoint(a0, a0 == b0, closed=in_set(a0, b0, out0))
        end = Endpoint(b1, a1 == b1, closed=in_set(a1, b1, out1))
        if pieces and pieces[-1].high.value >= a0 and start.closed:
            pieces[-1] = Interval(pieces[-1].low, end)  # one feasible stretch across a root
        else:
            pieces.append(Interval(start, end))
    # A feasible point alone (a double root touching a bound) is measure zero: a printed
    # figure's interval has width, so its set has too unless it is empty.
    return FitResult({name: tuple(pieces)}, True, witness=witness)


# -- Several unknowns: branch and bound in outward-rounded interval arithmetic ---------
#
# Boxes are rows of double arrays, split many at a time. Every unknown is at least 0 (a
# range's ends are exact non-negative numbers), so a monomial's range over a box is its
# values at the box's low and high corners. Doubles round every operation to within
# 2**-53 of the true result; each range is widened by a relative 1e-13 of the terms'
# absolute sum, far more than the rounding of the few dozen operations behind it, so
# every computed range holds the true one. A polynomial's range is the tighter of its
# corner form and its mean-value form (the value at the centre plus the gradient's range
# times the half-widths), which shrinks with the box.

#: Significant digits the branch and bound aims for (doubles carry about 16).
BOX_DIGITS = 12
#: Boxes split at once, and the most rounds of splitting for one bound.
_BATCH = 512
_MAX_ROUNDS = 4000
_SLACK = 1e-13


@dataclass(frozen=True)
class _Compiled:
    """A polynomial's terms as arrays (coefficients, exponents), and its gradient's."""

    coefficients: np.ndarray
    exponents: _Plan
    gradient: tuple[tuple[np.ndarray, _Plan], ...]

    @classmethod
    def of(cls, poly: Poly) -> _Compiled:
        n = len(poly.names)

        def arrays(terms):
            coefficients = np.array([float(c) for _, c in terms], dtype=float)
            exponents = np.array([m for m, _ in terms], dtype=float).reshape(len(terms), n)
            return coefficients, _plan(exponents)

        gradient = []
        for axis in range(n):
            derivative: dict[tuple[int, ...], Fraction] = {}
            for m, c in poly.terms:
                if m[axis]:
                    key = (*m[:axis], m[axis] - 1, *m[axis + 1 :])
                    derivative[key] = derivative.get(key, Fraction(0)) + c * m[axis]
            gradient.append(arrays([(m, c) for m, c in derivative.items() if c]))
        return cls(*arrays(poly.terms), tuple(gradient))


@dataclass(frozen=True)
class _Plan:
    """How a polynomial's monomials are computed: per unknown, its distinct exponents and
    each term's among them (found once, when the polynomial is compiled)."""

    terms: int
    axes: tuple[tuple[np.ndarray, np.ndarray], ...]


def _plan(exponents: np.ndarray) -> _Plan:
    """The :class:`_Plan` of the terms' ``exponents`` (a row per term, a column per
    unknown)."""
    axes = []
    for axis in range(exponents.shape[1]):
        distinct, where = np.unique(exponents[:, axis], return_inverse=True)
        axes.append((distinct, where.reshape(-1)))
    return _Plan(len(exponents), tuple(axes))


def _monomials(points, plan: _Plan):
    """Each term's monomial at each point (rows of ``points``): the product over the
    unknowns of each one's power, each power computed once per point and distinct
    exponent (as ``points ** exponents`` computes it, element by element) and multiplied
    in the unknowns' order, so the values are those of the product of the powers."""
    out = None
    for axis, (distinct, where) in enumerate(plan.axes):
        powers = points[:, axis, None] ** distinct[None, :]
        factor = powers[:, where]
        out = factor if out is None else out * factor
    if out is None:
        return np.ones((len(points), plan.terms))
    return out


def _corner_range(coefficients, exponents, low, high):
    """Ranges over boxes (rows of ``low``, ``high``, every end >= 0) of a polynomial."""
    if not len(coefficients):
        zero = np.zeros(len(low))
        return zero, zero
    at_low = _monomials(low, exponents)
    at_high = at_low if high is low else _monomials(high, exponents)
    positive = coefficients >= 0
    term_low = np.where(positive, coefficients * at_low, coefficients * at_high)
    term_high = np.where(positive, coefficients * at_high, coefficients * at_low)
    slack = _SLACK * (np.abs(term_low) + np.abs(term_high)).sum(axis=1) + 1e-300
    return term_low.sum(axis=1) - slack, term_high.sum(axis=1) + slack


def _ranges(compiled: _Compiled, low, high):
    corner_low, corner_high = _corner_range(compiled.coefficients, compiled.exponents, low, high)
    centre = (low + high) / 2
    value_low, value_high = _corner_range(compiled.coefficients, compiled.exponents, centre, centre)
    half = (high - low) / 2 * (1 + _SLACK)
    for axis, (coefficients, exponents) in enumerate(compiled.gradient):
        slope_low, slope_high = _corner_range(coefficients, exponents, low, high)
        reach = np.maximum(np.abs(slope_low), np.abs(slope_high)) * half[:, axis]
        value_low, value_high = value_low - reach, value_high + reach
    return np.maximum(corner_low, value_low), np.minimum(corner_high, value_high)


def _outside(compiled, low, high) -> np.ndarray:
    """Per box: can no point of it satisfy every constraint?"""
    out = np.zeros(len(low), dtype=bool)
    for poly, bottom, top in compiled:
        range_low, range_high = _ranges(poly, low, high)
        out |= (range_high < bottom) | (range_low > top)
    return out


def _feasible_points(compiled, points) -> np.ndarray:
    """Per point: does every constraint certainly hold there (its outward-rounded value
    inside the constraint's bounds)?"""
    ok = np.ones(len(points), dtype=bool)
    for poly, bottom, top in compiled:
        value_low, value_high = _corner_range(poly.coefficients, poly.exponents, points, points)
        ok &= (value_low >= bottom) & (value_high <= top)
    return ok


def _branch_and_bound(constraints: Sequence[Constraint], box) -> FitResult:
    names = list(box)
    start_low = np.array([float(box[n][0]) for n in names])
    start_high = np.array([float(box[n][1]) for n in names])
    # The box itself widened outward by a unit in the last place.
    start_low = np.nextafter(start_low, -np.inf).clip(min=0)
    start_high = np.nextafter(start_high, np.inf)
    compiled = [
        (
            _Compiled.of(c.poly),
            -np.inf if c.low is None else np.nextafter(float(c.low), -np.inf),
            np.inf if c.high is None else np.nextafter(float(c.high), np.inf),
        )
        for c in constraints
    ]
    widths = start_high - start_low
    intervals: dict[str, tuple[Interval, ...]] = {}
    witness = None
    worst = BOX_DIGITS
    for axis, name in enumerate(names):
        ends = []
        for upper in (False, True):
            bound, point, digits = _extreme(
                constraints, compiled, start_low, start_high, axis, upper, widths
            )
            if bound is None:
                return FitResult({n: () for n in names}, True)
            ends.append(Fraction(bound))
            worst = min(worst, digits)
            witness = witness or point
        # The set lies in the unknown's range: an end beyond it is the range's (exact).
        floor, ceiling = box[name]
        # Bounds from outside: no end is proven a consistent value (closed=False).
        low = (
            Endpoint(floor, True, closed=False)
            if ends[0] <= floor
            else Endpoint(ends[0], False, BOX_DIGITS)
        )
        high = (
            Endpoint(ceiling, True, closed=False)
            if ends[1] >= ceiling
            else Endpoint(ends[1], False, BOX_DIGITS)
        )
        intervals[name] = (Interval(low, high),)
    if witness is not None:  # (a float's exact value: a simpler one near it, if one holds)
        witness = simple_witness(constraints, box, witness)
    return FitResult(
        intervals, witness is not None, None if worst >= BOX_DIGITS else worst, witness
    )


def _extreme(constraints, compiled, start_low, start_high, axis, upper, widths):
    """An outer bound on the largest (``upper``) or smallest value of coordinate ``axis``
    over the feasible set, whether an exactly feasible point was met, and the digits of
    the bound reached.

    Every box kept may hold a feasible point, so the best edge among them bounds the
    extreme from outside; each round splits the boxes of the best edges (the smallest
    first among equal edges, so that one path reaches the target width) and drops the
    children no feasible point can be in."""
    target = 10.0**-BOX_DIGITS
    low, high = start_low[None, :].copy(), start_high[None, :].copy()
    if _outside(compiled, low, high).all():
        return None, None, BOX_DIGITS
    names = constraints[0].poly.names
    found = None
    for _ in range(_MAX_ROUNDS):
        if not len(low):
            return None, None, BOX_DIGITS
        edges = high[:, axis] if upper else -low[:, axis]
        scaled = (high - low) / widths
        order = np.lexsort((scaled.max(axis=1), -edges))
        best = order[0]
        if found is None:  # a point that satisfies every claim: the set is not empty
            centres = (low + high) / 2
            for row in np.nonzero(_feasible_points(compiled, centres))[0][:4]:
                point = {n: Fraction(float(v)) for n, v in zip(names, centres[row], strict=True)}
                if all(c.holds(point) for c in constraints):  # checked exactly
                    found = point
                    break
        if scaled[best, axis] <= target:
            edge = high[best, axis] if upper else low[best, axis]
            return float(np.nextafter(edge, np.inf if upper else -np.inf)), found, BOX_DIGITS
        chosen = order[:_BATCH]
        split = np.argmax(scaled[chosen], axis=1)
        rows = np.arange(len(chosen))
        middle = (low[chosen, split] + high[chosen, split]) / 2
        left_high = high[chosen].copy()
        left_high[rows, split] = middle
        right_low = low[chosen].copy()
        right_low[rows, split] = middle
        child_low = np.concatenate([low[chosen], right_low])
        child_high = np.concatenate([left_high, high[chosen]])
        keep = ~_outside(compiled, child_low, child_high)
        rest = np.ones(len(low), dtype=bool)
        rest[chosen] = False
        low = np.concatenate([low[rest], child_low[keep]])
        high = np.concatenate([high[rest], child_high[keep]])
    edges = high[:, axis] if upper else -low[:, axis]
    best = int(np.argmax(edges))
    edge = high[best, axis] if upper else low[best, axis]
    return float(edge), found, _digits(float((high[best, axis] - low[best, axis]) / widths[axis]))


def _digits(width: float) -> int:
    return max(0, math.floor(-math.log10(width))) if width > 0 else BOX_DIGITS
