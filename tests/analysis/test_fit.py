"""fit: the figures of a paytable with unknowns as exact polynomials, and what printed
figures allow of the unknowns."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from helpers import write_claims, write_paytable

from analyzer import analyze, load_paytable
from analyzer.analysis.fit import fit, outward_decimal
from analyzer.analysis.verify import load_claims
from analyzer.paytables.printed import printed_value

PAYTABLE = """
name = "Unknown"
decks = 8
fee = "0.2"
[unknowns]
{unknowns}
[multipliers]
cards = {cards}
values = {values}
[[bet]]
id = "player"
multiply = "winner"
rule = [{{ when = "winner == 'player'", pays = "multiplier" }},
        {{ when = "winner == 'tie'", pays = "push" }}]
[[bet]]
id = "tie"
multiply = "both"
rule = [{{ when = "winner == 'tie'", pays = "5 * multiplier" }}]
[[bet]]
id = "pair"
multiply = "player_first_two"
rule = [{{ when = "player_pair", pays = "9 * multiplier" }}]
"""
ONE = {"unknowns": 'p = "0..1"', "cards": 5, "values": '{ 2 = "1 - p", 8 = "p" }'}
TWO = {
    "unknowns": 'p = "0..1"\nq = "0..1/2"',
    "cards": '{ 1 = "1 - q", 3 = "q" }',
    "values": '{ 2 = "1 - p", 5 = "p" }',
}


def paytable_of(tmp_path, spec):
    return write_paytable(tmp_path, PAYTABLE.format(**spec))


def claims_at(tmp_path, paytable_path, point, figures, places=4):
    """Claims of each (bet, quantity) printed as the exact analysis at ``point`` gives."""
    fixed = load_paytable(paytable_path).with_unknowns(point)
    analysis = analyze(paytable=fixed)
    lines = [f'paytable = "{paytable_path.name}"']
    for bet, quantity in figures:
        value = getattr(analysis.result(bet), {"rtp": "rtp", "variance": "variance"}[quantity])
        shown = printed_value(value, places, percent=quantity == "rtp")
        lines += ["[[claim]]", f'quantity = "{quantity}"', f'bet = "{bet}"', f'value = "{shown}"']
    return write_claims(tmp_path, "\n".join(lines) + "\n")


def test_symbolic_figures_are_the_exact_analysis_at_every_point(tmp_path) -> None:
    paytable = load_paytable(paytable_of(tmp_path, TWO))
    symbolic = analyze(paytable=paytable, symbolic=True)
    for point in ({"p": Fraction(0), "q": Fraction(0)}, {"p": Fraction(1, 3), "q": Fraction(1, 7)}):
        numeric = analyze(paytable=paytable.with_unknowns(point))
        for result in symbolic.results:
            other = numeric.result(result.bet.id)
            assert result.rtp.at(point) == other.rtp, result.bet.id
            assert result.variance.at(point) == other.variance, result.bet.id
            assert result.hit_frequency == other.hit_frequency


def test_one_unknown_is_found_exactly(tmp_path) -> None:
    path = paytable_of(tmp_path, ONE)
    truth = Fraction(3, 10)
    figures = [("player", "rtp"), ("tie", "rtp"), ("pair", "rtp")]
    claims = load_claims(claims_at(tmp_path, path, {"p": truth}, figures))
    each, together = fit(load_paytable(path), claims)
    symbolic = analyze(paytable=load_paytable(path), symbolic=True)
    for item in each:
        (piece,) = item.result.intervals["p"]
        assert piece.low.value <= truth <= piece.high.value, item.figure
        # The ends are where the RTP crosses the printed figure's rounding interval: just
        # outside them it prints otherwise, just inside it prints as claimed.
        rtp = symbolic.result(item.claim.bet).rtp
        for end, inside in ((piece.low.value, 1), (piece.high.value, -1)):
            printed = item.claim.value
            step = Fraction(1, 10**12)
            assert printed_value(rtp.at({"p": end + inside * step}), 4) == printed
            assert printed_value(rtp.at({"p": end - inside * step}), 4) != printed
    (combined,) = together.intervals["p"]
    assert combined.low.value <= truth <= combined.high.value
    assert combined.high.value - combined.low.value < Fraction(1, 1000)
    assert together.exact


def test_contradictory_figures_allow_none(tmp_path) -> None:
    path = paytable_of(tmp_path, ONE)
    text = f'paytable = "{path.name}"\n[[claim]]\nquantity = "rtp"\nbet = "player"\n'
    claims = write_claims(tmp_path, text + 'value = "50.00%"\n')
    _, together = fit(load_paytable(path), load_claims(claims))
    assert together.empty


@pytest.mark.slow
def test_two_unknowns_are_bounded_from_outside(tmp_path) -> None:
    path = paytable_of(tmp_path, TWO)
    truth = {"p": Fraction(1, 5), "q": Fraction(1, 4)}
    figures = [("player", "rtp"), ("tie", "rtp"), ("pair", "rtp"), ("tie", "variance")]
    claims = claims_at(tmp_path, path, truth, figures, places=5)
    _, together = fit(load_paytable(path), load_claims(claims))
    for name, value in truth.items():
        (piece,) = together.intervals[name]
        assert piece.low.value <= value <= piece.high.value, name
        assert piece.high.value - piece.low.value < Fraction(1, 10), name
    assert together.exact  # a point was found that satisfies every claim exactly


def test_outward_decimals() -> None:
    assert outward_decimal(Fraction(1, 3), upper=False, digits=5) == "0.33333"
    assert outward_decimal(Fraction(1, 3), upper=True, digits=5) == "0.33334"
    assert outward_decimal(Fraction(0), upper=True) == "0"


def _printed_point(line: str) -> dict[str, Fraction]:
    """The point of fit's sentence "... (checked exactly ...): p = 1/8 (0.125), q = ...",
    each unknown's exact fraction as printed."""
    import re

    sentence = line.split("):", 1)[1]
    return {name: Fraction(value) for name, value in re.findall(r"(\w+) = ([0-9/]+)", sentence)}


@pytest.mark.slow
def test_the_point_fit_prints_is_the_point_it_checked(tmp_path, capsys) -> None:
    """With two unknowns the witness comes from a float point: what the text prints is
    an exact fraction, the one JSON gives, and at it every claim prints as claimed (by
    the exact analysis). Near the set's edge (figures to 5 places) as well."""
    import json

    from helpers import run

    path = paytable_of(tmp_path, TWO)
    truth = {"p": Fraction(1, 5), "q": Fraction(1, 4)}
    figures = [("player", "rtp"), ("tie", "rtp")]
    claims_path = claims_at(tmp_path, path, truth, figures, places=5)
    code, out, _ = run(capsys, "fit", str(claims_path))
    assert code == 0
    (line,) = [line for line in out.splitlines() if "checked exactly" in line]
    printed = _printed_point(line)
    code, out, _ = run(capsys, "fit", str(claims_path), "--format", "json")
    witness = {n: Fraction(v) for n, v in json.loads(out)["together"]["witness"].items()}
    assert printed == witness and set(witness) == {"p", "q"}
    # Simple: no float's 2**-52 denominators.
    assert all(value.denominator < 10**6 for value in witness.values()), witness
    analysis = analyze(paytable=load_paytable(path).with_unknowns(witness))
    for claim in load_claims(claims_path):
        shown = printed_value(analysis.result(claim.bet).rtp, 5, percent=True)
        assert shown == claim.value, claim.bet


def test_printed_interval_ends_keep_every_consistent_point_inside(tmp_path, capsys) -> None:
    """fit's printed ends are rounded outward: at each printed end that is a decimal (not
    exact), just past it, the claim no longer prints as claimed (the exact analysis
    there), and just inside it does. One unknown, a figure to 6 places (a thin set)."""
    from helpers import run

    path = paytable_of(tmp_path, ONE)
    claims_path = claims_at(tmp_path, path, {"p": Fraction(3, 10)}, [("tie", "rtp")], places=6)
    (claim,) = load_claims(claims_path)
    code, out, _ = run(capsys, "fit", str(claims_path))
    assert code == 0
    (row,) = [line for line in out.splitlines() if line.startswith("all")]
    interval = re.search(r"[\[(]([^,]+), ([^\])]+)[\])]", row)
    low, high = (Fraction(end) for end in interval.groups())
    assert low < Fraction(3, 10) < high

    def prints_as_claimed(p: Fraction) -> bool:
        result = analyze(paytable=load_paytable(path).with_unknowns({"p": p})).result("tie")
        return printed_value(result.rtp, 6, percent=True) == claim.value

    step = (high - low) / 10**6
    assert not prints_as_claimed(low) and not prints_as_claimed(high)
    assert prints_as_claimed(low + step) and prints_as_claimed(high - step)


# -- Linear figures: the exact vertex path --------------------------------------------------


def _poly(names, constant, **coefficients):
    from analyzer.paytables.unknowns import Poly

    terms = [((0,) * len(names), Fraction(constant))] if constant else []
    for name, value in coefficients.items():
        terms.append((tuple(int(n == name) for n in names), Fraction(value)))
    return Poly(tuple(names), tuple(terms))


def test_linear_figures_are_solved_exactly_by_hand() -> None:
    from analyzer.analysis.fit import Constraint, solve

    names = ("x", "y")
    box = {"x": (Fraction(0), Fraction(1)), "y": (Fraction(0), Fraction(1))}
    # x + y <= 1, x >= 1/4, y - x >= -1/2: x in [1/4, 3/4], y in [0, 3/4] (by hand).
    constraints = [
        Constraint(_poly(names, 0, x=1, y=1), None, Fraction(1)),
        Constraint(_poly(names, 0, x=1), Fraction(1, 4), None),
        Constraint(_poly(names, 0, x=-1, y=1), Fraction(-1, 2), None),
    ]
    result = solve(constraints, box)
    (x,) = result.intervals["x"]
    (y,) = result.intervals["y"]
    assert (x.low.value, x.high.value) == (Fraction(1, 4), Fraction(3, 4))
    assert (y.low.value, y.high.value) == (Fraction(0), Fraction(3, 4))
    assert x.low.exact and y.high.exact
    assert all(c.holds(result.witness) for c in constraints)
    # Two bands that cannot meet inside the box: proven empty.
    apart = [
        Constraint(_poly(names, 0, x=1, y=1), Fraction(3, 2), None),
        Constraint(_poly(names, 0, x=1, y=2), None, Fraction(1, 2)),
    ]
    assert solve(apart, box).empty


def test_linear_figures_agree_with_the_branch_and_bound() -> None:
    import random

    from analyzer.analysis.fit import Constraint, _branch_and_bound, solve

    names = ("a", "b", "c")
    box = {name: (Fraction(0), Fraction(1)) for name in names}
    chooser = random.Random(7)
    for _ in range(3):
        constraints = [Constraint(_poly(names, -1, a=1, b=1, c=1), None, Fraction(0))]
        for _ in range(2):
            weights = {name: Fraction(chooser.randint(1, 9), 4) for name in names}
            middle = Fraction(sum(weights.values()), 3)
            poly = _poly(names, 0, **weights)
            constraints.append(Constraint(poly, middle - Fraction(1, 5), middle + Fraction(1, 5)))
        exact = solve(constraints, box)
        outer = _branch_and_bound(constraints, box)
        for name in names:
            (piece,) = exact.intervals[name]
            low = min(p.low.value for p in outer.intervals[name])
            high = max(p.high.value for p in outer.intervals[name])
            # The branch and bound bounds from outside, to the digits it reaches.
            assert low <= piece.low.value and piece.high.value <= high
            assert piece.low.value - low < Fraction(1, 10**3)
            assert high - piece.high.value < Fraction(1, 10**3)


def test_an_end_a_printed_figure_leaves_out_is_open(tmp_path, capsys) -> None:
    """A figure linear in one unknown (one special card) reaches the ends of its printed
    range at rational points: fit states each end exactly, and whether it is in the set as verify's
    rounding has it (half away from zero: the low end of 98.8% prints 98.8%, the high
    end prints 98.9%). Checked by printing the exact analysis at both ends."""
    import json

    from helpers import run

    path = paytable_of(tmp_path, ONE | {"cards": 1})  # one special card: linear in p
    claims_path = claims_at(tmp_path, path, {"p": Fraction(3, 10)}, [("player", "rtp")])
    (claim,) = load_claims(claims_path)
    each, _ = fit(load_paytable(path), [claim])
    (piece,) = each[0].result.intervals["p"]
    assert piece.low.exact and piece.high.exact
    for end in (piece.low, piece.high):
        at = analyze(paytable=load_paytable(path).with_unknowns({"p": end.value}))
        prints = printed_value(at.result("player").rtp, 4, percent=True) == claim.value
        assert prints == end.closed, end
    assert piece.low.closed != piece.high.closed  # the RTP rises with p: the high end is out
    code, out, _ = run(capsys, "fit", str(claims_path))
    assert code == 0 and piece.text() in out and piece.text().endswith(")")
    code, out, _ = run(capsys, "fit", str(claims_path), "--format", "json")
    document = json.loads(out)
    # As written (decimals rounded outward: the fractions' denominators are large), neither
    # end is a consistent value.
    assert document["together"]["closed"] == {"p": [[False, False]]}
    assert document["claims"][0]["closed"] == {"p": [[False, False]]}


def test_linear_open_ends_are_decided_by_their_faces() -> None:
    """The vertex path with ends a printed figure leaves out: x + y < 1 (open) keeps the
    corner (1/2, 1/2) of x, y >= 1/2 out, so the set is empty; x + y <= 1 keeps it."""
    from analyzer.analysis.fit import Constraint, solve

    names = ("x", "y")
    box = {"x": (Fraction(0), Fraction(1)), "y": (Fraction(0), Fraction(1))}
    half = Fraction(1, 2)
    sides = [
        Constraint(_poly(names, 0, x=1), half, None),
        Constraint(_poly(names, 0, y=1), half, None),
    ]
    both = Constraint(_poly(names, 0, x=1, y=1), None, Fraction(1), high_closed=False)
    assert solve([*sides, both], box).empty
    closed = Constraint(_poly(names, 0, x=1, y=1), None, Fraction(1))
    result = solve([*sides, closed], box)
    assert result.intervals["x"][0].text() == "[1/2, 1/2]"
    # x + y < 1 with x, y >= 1/4: x from 1/4 (in: (1/4, 1/4) is a point of the set) to 3/4
    # (out: its only point (3/4, 1/4) has x + y = 1); x - y < 1/2 too leaves (1/2, 1/4)...
    quarter = Fraction(1, 4)
    sides = [
        Constraint(_poly(names, 0, x=1), quarter, None),
        Constraint(_poly(names, 0, y=1), quarter, None),
    ]
    (x,) = solve([*sides, both], box).intervals["x"]
    assert x.text() == "[1/4, 3/4)"
    # Two open planes meeting the face x = 1/4 at its two ends leave its middle in: the
    # face's vertices are both out, yet (1/4, 1/2) is a point of the set.
    upper = Constraint(_poly(names, 0, y=1), None, Fraction(3, 4), high_closed=False)
    lower = Constraint(_poly(names, 0, y=1), quarter, None, low_closed=False)
    (x,) = solve(
        [Constraint(_poly(names, 0, x=1), quarter, None), upper, lower, both], box
    ).intervals["x"]
    assert x.low.value == quarter and x.low.closed
    assert not x.high.closed and x.high.value == Fraction(3, 4)


def test_a_maximum_rtp_claim_holds_where_the_best_bet_prints_so(tmp_path) -> None:
    """The game's maximum RTP as printed: the unknowns where the largest of the bets' RTPs
    (each bet's numeric analysis at that point) prints as claimed are the fit's set, at
    points across the range and just either side of each end."""
    # A fixed Tie at 8:1 (85.64%) is the best bet for small p, the multiplied Player
    # (84.06% at p = 0, 95.42% at p = 1) past it.
    fixed = '[[bet]]\nid = "tie8"\nrule = [{ when = "winner == \'tie\'", pays = "8:1" }]\n'
    path = write_paytable(tmp_path, PAYTABLE.format(**(ONE | {"cards": 1})) + fixed)
    paytable = load_paytable(path)

    def max_rtp_at(p: Fraction) -> Fraction:
        return max(r.rtp for r in analyze(paytable=paytable.with_unknowns({"p": p})).results)

    for truth in (Fraction(3, 10), Fraction(1, 20)):
        claimed = printed_value(max_rtp_at(truth), 2, percent=True)
        _check_max_rtp_fit(tmp_path, path, paytable, claimed, max_rtp_at, truth)


def _check_max_rtp_fit(tmp_path, path, paytable, claimed, max_rtp_at, truth) -> None:
    claims = write_claims(
        tmp_path,
        f'paytable = "{path.name}"\n[[claim]]\nquantity = "max_rtp"\nvalue = "{claimed}"\n',
    )
    (item,), together = fit(paytable, load_claims(claims))
    assert item.result.intervals == together.intervals and item.figure == f"max_rtp {claimed}"
    pieces = together.intervals["p"]

    def inside(p: Fraction) -> bool:
        return any(
            (piece.low.value < p or (p == piece.low.value and piece.low.closed))
            and (p < piece.high.value or (p == piece.high.value and piece.high.closed))
            for piece in pieces
        )

    step = Fraction(1, 10**9)
    points = [Fraction(k, 20) for k in range(21)]
    for piece in pieces:
        for end in (piece.low, piece.high):
            if end.exact:
                points += [end.value - step, end.value, end.value + step]
    for p in points:
        if 0 <= p <= 1:
            prints = printed_value(max_rtp_at(p), 2, percent=True) == claimed
            assert prints == inside(p), p
    assert inside(truth) and together.witness is not None


def test_alternatives_are_solved_alone_and_their_union_merged() -> None:
    """A claim that holds where one of several sets of constraints does (the maximum RTP:
    one per bet): apart, the union has two pieces; touching where either end is in, one;
    touching where both ends are out, the point between is in neither."""
    from analyzer.analysis.fit import Constraint, solve_any

    names = ("x",)
    box = {"x": (Fraction(0), Fraction(1))}
    x = _poly(names, 0, x=1)

    def below(v, closed=True):
        return (Constraint(x, None, Fraction(v), high_closed=closed),)

    def above(v, closed=True):
        return (Constraint(x, Fraction(v), None, low_closed=closed),)

    def text(alternatives) -> str:
        return " or ".join(p.text() for p in solve_any([], alternatives, box).intervals["x"])

    assert text([below("1/4"), above("3/4")]) == "[0, 1/4] or [3/4, 1]"
    assert text([above("3/4"), below("1/4")]) == "[0, 1/4] or [3/4, 1]"
    assert text([below("1/2", closed=False), above("1/2")]) == "[0, 1]"
    assert text([below("1/2"), above("1/2", closed=False)]) == "[0, 1]"
    assert text([below("1/2", closed=False), above("1/2", closed=False)]) == "[0, 1/2) or (1/2, 1]"
    assert text([below("1/2"), below("1/3", closed=False)]) == "[0, 1/2]"


def test_monomials_are_the_product_of_the_powers() -> None:
    # The branch and bound's monomials, each power computed once per distinct exponent (a
    # third of verify golden-wealth-baccarat's time before): the product of the powers to
    # a few units in the last place. Not to the bit: numpy's vectorised power (AVX-512
    # where the processor has it) rounds some powers an ulp or two off the scalar one,
    # depending on the arrays' layout; the bounds' slack (_SLACK, 1e-13 relative) is some
    # 500 times that.
    import numpy as np

    from analyzer.analysis.fit import _monomials, _plan

    rng = np.random.default_rng(7)
    for _ in range(200):
        unknowns, terms, boxes = rng.integers(1, 4), rng.integers(1, 30), rng.integers(1, 300)
        exponents = rng.integers(0, 9, size=(terms, unknowns)).astype(float)
        points = rng.random((boxes, unknowns)) * rng.choice([1e-3, 0.3, 1.0])
        expected = np.prod(points[:, None, :] ** exponents[None], axis=2)
        np.testing.assert_array_max_ulp(_monomials(points, _plan(exponents)), expected, 4)
