"""Unknowns of a paytable: parameters its source does not publish, as exact polynomials.

A paytable may leave a few numbers of its multiplier distribution unknown::

    [unknowns]
    p = "0..1"
    [multipliers]
    values = { 2 = "1 - p", 3 = "p" }

Every probability is then a polynomial in the unknowns with exact rational coefficients
(:class:`Poly`), read by a small parser of ``+ - * /``, parentheses, numbers and the
unknowns' names: nothing is evaluated by Python, and a division is by a constant only.
Every figure of a multiplied bet is then a polynomial in the unknowns too, which
:mod:`analyzer.analysis.fit` solves against published figures.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction

from analyzer.errors import AnalyzerError
from analyzer.game.fields import FIELD
from analyzer.memo import Pattern
from analyzer.records import record
from analyzer.schema import exact_number, table

#: The most unknowns a paytable may have ("at most a few": the solver is exact for one
#: and bounds several; three take a few minutes, a fourth far longer).
MAX_UNKNOWNS = 3
#: The longest expression read, and the deepest nesting of parentheses.
MAX_EXPRESSION = 200
MAX_DEPTH = 20
_NAME = Pattern(r"[a-z][a-z0-9_]{0,31}")
_TOKEN = Pattern(r"\s*(?:([0-9]{1,15}(?:\.[0-9]{1,15})?)|([a-z][a-z0-9_]{0,31})|(\S))")
#: Names an unknown may not take (the words of payouts and conditions).
_RESERVED = frozenset({"multiplier", "jackpot", "and", "or", "not", "in", "true", "false"}) | set(
    FIELD
)

Monomial = tuple[int, ...]


@record
class Poly:
    """A polynomial in ``names`` with exact coefficients: ``terms`` maps each monomial
    (its exponents, one per name) to its nonzero coefficient."""

    names: tuple[str, ...]
    terms: tuple[tuple[Monomial, Fraction], ...]

    @classmethod
    def constant(cls, names: tuple[str, ...], value: Fraction | int) -> Poly:
        value = Fraction(value)
        return cls(names, (((0,) * len(names), value),) if value else ())

    @classmethod
    def variable(cls, names: tuple[str, ...], name: str) -> Poly:
        exponents = tuple(int(n == name) for n in names)
        return cls(names, ((exponents, Fraction(1)),))

    @property
    def degree(self) -> int:
        return max((sum(m) for m, _ in self.terms), default=0)

    @property
    def used(self) -> frozenset[str]:
        """The unknowns the polynomial moves with (a nonzero power in some term)."""
        return frozenset(
            name for i, name in enumerate(self.names) if any(m[i] for m, _ in self.terms)
        )

    @property
    def is_constant(self) -> bool:
        return all(not any(m) for m, _ in self.terms)

    @property
    def value(self) -> Fraction:
        """The value of a constant polynomial."""
        if not self.is_constant:
            raise AnalyzerError("the value depends on unknowns")
        return self.terms[0][1] if self.terms else Fraction(0)

    def _lift(self, other: object) -> Poly:
        if isinstance(other, Poly):
            if other.names != self.names:
                raise ValueError("polynomials in different unknowns")
            return other
        if isinstance(other, (int, Fraction)):
            return Poly.constant(self.names, other)
        return NotImplemented  # type: ignore[return-value]

    def __add__(self, other: object) -> Poly:
        other = self._lift(other)
        if other is NotImplemented:
            return NotImplemented
        out = dict(self.terms)
        for m, c in other.terms:
            out[m] = out.get(m, Fraction(0)) + c
        return Poly(self.names, tuple(sorted((m, c) for m, c in out.items() if c)))

    __radd__ = __add__

    def __neg__(self) -> Poly:
        return Poly(self.names, tuple((m, -c) for m, c in self.terms))

    def __sub__(self, other: object) -> Poly:
        other = self._lift(other)
        if other is NotImplemented:
            return NotImplemented
        return self + (-other)

    def __rsub__(self, other: object) -> Poly:
        return (-self) + other

    def __mul__(self, other: object) -> Poly:
        other = self._lift(other)
        if other is NotImplemented:
            return NotImplemented
        out: dict[Monomial, Fraction] = {}
        for m, c in self.terms:
            for n, d in other.terms:
                key = tuple(a + b for a, b in zip(m, n, strict=True))
                out[key] = out.get(key, Fraction(0)) + c * d
        return Poly(self.names, tuple(sorted((m, c) for m, c in out.items() if c)))

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> Poly:
        if isinstance(other, Poly):
            other = other.value if other.is_constant else None
        if not isinstance(other, (int, Fraction)) or other == 0:
            raise AnalyzerError("a division must be by a nonzero number, not by an unknown")
        return self * (1 / Fraction(other))

    def __pow__(self, power: int) -> Poly:
        out = Poly.constant(self.names, 1)
        for _ in range(power):
            out = out * self
        return out

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (int, Fraction)):
            return self.is_constant and self.value == other
        return isinstance(other, Poly) and (self.names, self.terms) == (other.names, other.terms)

    def __hash__(self) -> int:
        return hash((self.names, self.terms))

    def at(self, point: Mapping[str, Fraction]) -> Fraction:
        """The exact value at ``point`` (a value per unknown)."""
        values = [Fraction(point[name]) for name in self.names]
        total = Fraction(0)
        for m, c in self.terms:
            term = c
            for v, e in zip(values, m, strict=True):
                if e:
                    term *= v**e
            total += term
        return total

    def __str__(self) -> str:
        if not self.terms:
            return "0"
        parts = []
        for m, c in reversed(self.terms):
            factors = [n if e == 1 else f"{n}^{e}" for n, e in zip(self.names, m, strict=True) if e]
            if not factors:
                parts.append(str(c))
            elif c in (1, -1):
                parts.append(("-" if c < 0 else "") + "*".join(factors))
            else:
                parts.append(f"{c}*" + "*".join(factors))
        return " + ".join(parts).replace("+ -", "- ")


def parse_unknowns(data: object, where: str) -> dict[str, tuple[Fraction, Fraction]]:
    """``[unknowns]``: each name's range, ``"low..high"`` (exact numbers, low < high)."""
    entries = table(data, where, 'a table of unknowns, e.g. p = "0..1"')
    if not entries:
        raise AnalyzerError(f"{where}: names no unknown")
    if len(entries) > MAX_UNKNOWNS:
        raise AnalyzerError(f"{where}: at most {MAX_UNKNOWNS} unknowns, got {len(entries)}")
    out = {}
    for name, bounds in entries.items():
        if not _NAME.fullmatch(name) or name in _RESERVED:
            raise AnalyzerError(
                f"{where}: {name[:40]!r} is not an unknown's name (lower-case letters, digits "
                "and _, starting with a letter; not a word of payouts or conditions)"
            )
        if not isinstance(bounds, str) or bounds.count("..") != 1:
            raise AnalyzerError(
                f'{where}: {name} must be bounded, as "low..high" (e.g. "0..1"), got '
                f"{str(bounds)[:40]!r}"
            )
        low_text, high_text = bounds.split("..")
        low = exact_number(low_text.strip(), where, f"{name}'s low end")
        high = exact_number(high_text.strip(), where, f"{name}'s high end")
        if not low < high:
            raise AnalyzerError(f"{where}: {name}'s range {bounds!r} is empty")
        out[name] = (low, high)
    return out


def parse_expression(text: object, names: tuple[str, ...], where: str) -> Poly:
    """An exact number, or an arithmetic expression of numbers and the unknowns
    ``names`` (``"1 - p"``, ``"(1 - p - q) / 3"``, ``"p * q"``), as a polynomial."""
    if not isinstance(text, str):
        return Poly.constant(names, exact_number(text, where, "a probability"))
    if len(text) > MAX_EXPRESSION:
        raise AnalyzerError(f"{where}: the expression is longer than {MAX_EXPRESSION} characters")
    tokens = list(_tokens(text, where))
    parser = _Parser(tokens, names, where, text)
    result = parser.sum(0)
    if parser.position != len(tokens):
        raise AnalyzerError(f"{where}: cannot read {text[:40]!r} after {parser.shown()!r}")
    return result


def _tokens(text: str, where: str) -> Iterator[str]:
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match or match.end() == position:
            break
        token = match[1] or match[2] or match[3]
        if match[3] and match[3] not in "+-*/()":
            raise AnalyzerError(f"{where}: {text[:40]!r}: unexpected {match[3]!r}")
        yield token
        position = match.end()
        if not text[position:].strip():
            return


class _Parser:
    """Recursive descent over ``sum := product (('+'|'-') product)*``, ``product :=
    unary (('*'|'/') unary)*``, ``unary := ('-'|'+') unary | number | name | '(' sum ')'``."""

    def __init__(self, tokens: list[str], names: tuple[str, ...], where: str, text: str):
        self.tokens, self.names, self.where, self.text = tokens, names, where, text
        self.position = 0

    def shown(self) -> str:
        return " ".join(self.tokens[: self.position])[-40:]

    def peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise AnalyzerError(f"{self.where}: {self.text[:40]!r} ends too soon")
        self.position += 1
        return token

    def sum(self, depth: int) -> Poly:
        result = self.product(depth)
        while self.peek() in ("+", "-"):
            sign = self.take()
            term = self.product(depth)
            result = result + term if sign == "+" else result - term
        return result

    def product(self, depth: int) -> Poly:
        result = self.unary(depth)
        while self.peek() in ("*", "/"):
            operator = self.take()
            factor = self.unary(depth)
            try:
                result = result * factor if operator == "*" else result / factor
            except AnalyzerError as exc:
                raise AnalyzerError(f"{self.where}: {self.text[:40]!r}: {exc}") from None
        return result

    def unary(self, depth: int) -> Poly:
        if depth > MAX_DEPTH:
            raise AnalyzerError(f"{self.where}: {self.text[:40]!r} nests too deeply")
        token = self.take()
        if token in ("-", "+"):
            inner = self.unary(depth + 1)
            return -inner if token == "-" else inner
        if token == "(":
            inner = self.sum(depth + 1)
            if self.take() != ")":
                raise AnalyzerError(f"{self.where}: {self.text[:40]!r}: a '(' is not closed")
            return inner
        if token[0].isdigit():
            return Poly.constant(self.names, Fraction(token))
        if token in self.names:
            return Poly.variable(self.names, token)
        if _NAME.fullmatch(token):
            known = ", ".join(self.names) or "none"
            raise AnalyzerError(
                f"{self.where}: {token!r} is not an unknown of the paytable (unknowns: {known})"
            )
        raise AnalyzerError(f"{self.where}: {self.text[:40]!r}: unexpected {token!r}")


def as_poly(value: Fraction | Poly, names: tuple[str, ...]) -> Poly:
    return value if isinstance(value, Poly) else Poly.constant(names, value)


def constant_or_poly(poly: Poly) -> Fraction | Poly:
    """A Fraction where the polynomial is a number (every model without unknowns stays
    plain Fractions), else the polynomial."""
    return poly.value if poly.is_constant else poly
