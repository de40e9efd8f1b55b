"""Bet conditions: a tiny, safe expression language over the outcome table's fields.

``winner == 'banker' and banker_score == 6 and banker_cards in (2, 3)``

A condition is parsed with :func:`ast.parse` (which never runs code) and every node is
checked against a short allow-list: ``and or not``, parentheses, comparisons (chained too),
``in (...)`` with a list of constants, integer ``+ - *``, integers, strings,
``true``/``false`` and the field names of :data:`analyzer.outcomes.FIELDS`. It is then
evaluated column-wise with numpy.

Limits, each refused with one line naming it:

* at most 2,000 characters;
* integer literals within ±1,000,000;
* at most :data:`MAX_DEPTH` (100) levels of nesting, measured without recursion right after
  parsing, so that nothing later (checking, evaluating, messages) recurses without bound;
* no integer subexpression whose value could leave 64-bit integers. Every one gets an exact
  range by interval arithmetic from the fields' ranges
  (:data:`analyzer.outcomes.INT_FIELD_RANGES`), so evaluating in numpy ``int64`` is exact.
"""

from __future__ import annotations

import ast
import operator
import warnings
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any, NamedTuple

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.game.fields import FIELD, Field
from analyzer.game.games import Vocabulary
from analyzer.records import record

Columns = Mapping[str, np.ndarray]
_Eval = Callable[[Columns], Any]

#: The deepest nesting a condition may have, in expression levels (``true`` is 1 level,
#: ``not true`` 2). Real conditions need a handful; the bound keeps every recursive step
#: (ours and :func:`ast.unparse`'s) far from Python's recursion limit.
MAX_DEPTH = 100

_MAX_LENGTH = 2000
_MAX_INT = 10**6
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_LITERALS = {"true": True, "false": False}
_ARITHMETIC = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}
_ORDER = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
_EQUALITY = {ast.Eq: operator.eq, ast.NotEq: operator.ne}
_SYMBOLS = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
}
_LISTS = (ast.Tuple, ast.List, ast.Set)


@record
class Condition:
    """A parsed condition: ``mask(columns, n_rows)`` is a boolean array over the rows."""

    text: str
    fields: frozenset[str]
    _evaluate: _Eval = field(repr=False, compare=False)
    #: Text fields that are only ever compared with constants, and those constants: to
    #: settle the condition, such a field need only tell these values from the rest.
    literals: Mapping[str, frozenset[str]] = field(default_factory=dict, compare=False)
    #: Text fields that are only ever compared with other fields, never with a constant:
    #: to settle the condition, such a field need only tell which rows' values are equal
    #: (the suits of cards compared with each other can be relabelled freely).
    relational: frozenset[str] = field(default_factory=frozenset, compare=False)
    #: The fields it was checked against: a game's (:mod:`analyzer.game.games`), or None
    #: for punto banco's (:data:`analyzer.game.fields.FIELD`).
    vocabulary: Vocabulary | None = field(default=None, compare=False)

    def __reduce__(self) -> tuple:
        # A condition pickles as its text and is compiled again where it is unpickled
        # (worker processes, Dask): the compiled closure itself cannot be pickled.
        return parse_condition, (self.text, self.vocabulary)

    def definition(self, name: str) -> Field:
        """The definition of field ``name`` (one the condition reads)."""
        return (FIELD if self.vocabulary is None else self.vocabulary)[name]

    @property
    def shown(self) -> str:
        """The text as a table or message shows it: on one line, each run of whitespace
        (the line breaks of a TOML multi-line string) one space."""
        return _one_line(self.text)

    def mask(self, columns: Columns, n_rows: int) -> np.ndarray:
        """A fresh, writable bool array of length ``n_rows`` (a constant is broadcast)."""
        value = np.asarray(self._evaluate(columns), dtype=bool)
        return np.broadcast_to(value, (n_rows,)).copy()

    def holds(self, columns: Columns, n_rows: int) -> np.ndarray:
        """As :meth:`mask`, but read-only and not copied where it need not be: a mask
        several bets read (:class:`~analyzer.paytables.settle.SharedMasks`)."""
        value = np.asarray(self._evaluate(columns), dtype=bool)
        if value.shape != (n_rows,):
            return np.broadcast_to(value, (n_rows,))  # (read-only)
        value = value.view()  # (a column read as it is stays writable: its view is not)
        value.flags.writeable = False
        return value


class _Typed(NamedTuple):
    """A checked subexpression: its kind, how to evaluate it, and for numbers its range."""

    kind: type
    evaluate: _Eval
    #: Every value a number can take lies in [lo, hi] (None for other kinds).
    bounds: tuple[int, int] | None = None
    #: The field it reads, when it is one (text fields name the values they take).
    field: Field | None = None


def _constant(kind: type, value: object) -> _Typed:
    bounds = (value, value) if kind is int else None
    return _Typed(kind, lambda cols: value, bounds)


class _Compiler:
    """Type-checks an AST (depth already bounded) and turns it into a closure."""

    def __init__(self, vocabulary: Vocabulary | None = None) -> None:
        self.vocabulary: Mapping[str, Field] | Vocabulary = (
            FIELD if vocabulary is None else vocabulary
        )
        self.fields: set[str] = set()
        self.literals: dict[str, set[str]] = {}
        self.whole: set[str] = set()  # text fields compared with other fields

    def compile(self, node: ast.AST) -> _Typed:
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise AnalyzerError(f"{_describe(node)} is not allowed in a condition")
        return method(node)

    def _expect(self, node: ast.AST, want: type) -> _Typed:
        typed = self.compile(node)
        if typed.kind is not want:
            raise AnalyzerError(
                f"{_short(ast.unparse(node))!r} is {_kind_name(typed.kind)},"
                f" expected {_kind_name(want)}"
            )
        return typed

    def _number(self, node: ast.AST) -> _Typed:
        """An operand of arithmetic: a number, or true/false counting as 1 and 0 (so that
        ``(player_card1_rank == '9') + (banker_card1_rank == '9')`` counts nines)."""
        typed = self.compile(node)
        if typed.kind is bool:
            inner = typed.evaluate
            return _Typed(int, lambda cols: np.asarray(inner(cols), dtype=np.int64), (0, 1))
        if typed.kind is not int:
            raise AnalyzerError(
                f"{_short(ast.unparse(node))!r} is {_kind_name(typed.kind)}, expected a number"
            )
        return typed

    def _Expression(self, node: ast.Expression) -> _Typed:
        return self.compile(node.body)

    def _Name(self, node: ast.Name) -> _Typed:
        if node.id in _LITERALS:
            return _constant(bool, _LITERALS[node.id])
        if node.id not in self.vocabulary:
            known = ", ".join(self.vocabulary)
            raise AnalyzerError(f"unknown field {node.id!r} (fields: {known})")
        self.fields.add(node.id)
        name = node.id
        spec = self.vocabulary[name]
        kind = spec.kind
        if kind is int:
            # int64 whatever the column's dtype: the range proof below is for int64.
            return _Typed(
                int,
                lambda cols: np.asarray(cols[name], dtype=np.int64),
                (spec.low, spec.high),
                spec,
            )
        return _Typed(kind, lambda cols: cols[name], field=spec)

    def _Constant(self, node: ast.Constant) -> _Typed:
        value = node.value
        if isinstance(value, bool):
            return _constant(bool, value)
        if isinstance(value, int):
            _check_literal(value)
            return _constant(int, value)
        if isinstance(value, str):
            return _constant(str, value)
        raise AnalyzerError(
            f"constant {_short(repr(value))} is not allowed: use integers, strings, true/false"
        )

    def _UnaryOp(self, node: ast.UnaryOp) -> _Typed:
        if isinstance(node.op, ast.Not):
            inner = self._expect(node.operand, bool).evaluate
            return _Typed(bool, lambda cols: np.logical_not(inner(cols)))
        if isinstance(node.op, ast.USub):
            typed = self._number(node.operand)
            inner = typed.evaluate
            lo, hi = typed.bounds
            return _Typed(int, lambda cols: -inner(cols), _checked_range(node, -hi, -lo))
        raise AnalyzerError(f"{_describe(node)} is not allowed in a condition")

    def _BinOp(self, node: ast.BinOp) -> _Typed:
        op = _ARITHMETIC.get(type(node.op))
        if op is None:
            raise AnalyzerError(
                f"operator in {_short(ast.unparse(node))!r} is not allowed: use + - *"
            )
        left, right = self._number(node.left), self._number(node.right)
        (a, b), (c, d) = left.bounds, right.bounds
        if isinstance(node.op, ast.Add):
            lo, hi = a + c, b + d
        elif isinstance(node.op, ast.Sub):
            lo, hi = a - d, b - c
        else:
            products = (a * c, a * d, b * c, b * d)
            lo, hi = min(products), max(products)
        bounds = _checked_range(node, lo, hi)
        left_fn, right_fn = left.evaluate, right.evaluate
        return _Typed(int, lambda cols: op(left_fn(cols), right_fn(cols)), bounds)

    def _BoolOp(self, node: ast.BoolOp) -> _Typed:
        parts = [self._expect(value, bool).evaluate for value in node.values]
        combine = np.logical_and if isinstance(node.op, ast.And) else np.logical_or

        def evaluate(cols: Columns) -> Any:
            # Pairwise, so that constants (0-d) and columns (1-d) broadcast together.
            result = parts[0](cols)
            for part in parts[1:]:
                result = combine(result, part(cols))
            return result

        return _Typed(bool, evaluate)

    def _Compare(self, node: ast.Compare) -> _Typed:
        operands = [node.left, *node.comparators]
        # Each operand is compiled (and later evaluated) once, however many links use it:
        # compiling the middle of a chain twice would double the work at every nesting level.
        compiled: dict[int, _Typed] = {}

        def operand(i: int) -> _Typed:
            if i not in compiled:
                compiled[i] = self.compile(operands[i])
            return compiled[i]

        links = [self._link(operands, i, op, operand) for i, op in enumerate(node.ops)]
        fns = {i: typed.evaluate for i, typed in compiled.items()}

        def evaluate(cols: Columns) -> Any:
            values = {i: fn(cols) for i, fn in fns.items()}
            result = links[0](values)
            for link in links[1:]:
                result = np.logical_and(result, link(values))
            return result

        return _Typed(bool, evaluate)

    def _link(
        self,
        operands: list[ast.expr],
        i: int,
        op: ast.cmpop,
        operand: Callable[[int], _Typed],
    ) -> Callable[[dict[int, Any]], Any]:
        """One comparison of a chain, between operands ``i`` and ``i + 1``."""
        left_node, right_node = operands[i], operands[i + 1]
        symbol = _SYMBOLS.get(type(op), "?")
        text = _LinkText(left_node, symbol, right_node)
        if isinstance(op, (ast.Is, ast.IsNot)):
            instead = "==" if isinstance(op, ast.Is) else "!="
            raise AnalyzerError(f"{text!r}: {symbol!r} is not allowed, use {instead}")
        left = operand(i)
        left_kind = left.kind
        if isinstance(op, (ast.In, ast.NotIn)):
            if not isinstance(right_node, _LISTS):
                raise AnalyzerError(f"{text!r}: 'in' needs a parenthesised list, e.g. (1, 2)")
            options = [_item(item, left, text) for item in right_node.elts]
            if left.kind is str and left.field is not None:
                self.literals.setdefault(left.field.name, set()).update(options)
            return _membership(i, options, isinstance(op, ast.NotIn))
        right_kind = operand(i + 1).kind
        if left_kind is not right_kind:
            raise AnalyzerError(
                f"{text!r} compares {_kind_name(left_kind)} with {_kind_name(right_kind)}"
            )
        if type(op) in _ORDER:
            if left_kind is not int:
                raise AnalyzerError(f"{text!r}: only numbers can be ordered")
            fn = _ORDER[type(op)]
        elif type(op) in _EQUALITY:
            fn = _EQUALITY[type(op)]
        else:
            raise AnalyzerError(f"{text!r}: comparison not allowed")
        if left_kind is str:
            # A text field compared with a constant: the constant must be a value it takes.
            right = operand(i + 1)
            for field_side, other, other_typed in (
                (left, right_node, right),
                (right, left_node, left),
            ):
                if field_side.field is None:
                    continue
                if isinstance(other, ast.Constant):
                    _check_value(field_side.field, other.value, text)
                    self.literals.setdefault(field_side.field.name, set()).add(other.value)
                elif other_typed.field is not None:
                    self.whole.add(field_side.field.name)
        return lambda values: fn(values[i], values[i + 1])


#: The most comparisons (values times options) ``in (...)`` makes one by one, all at
#: once; a longer column is looked up by :func:`numpy.isin` (which sorts, and costs some
#: tens of microseconds however short the column: a bet settled on a table of a few rows
#: paid that for each ``in``).
_MOST_COMPARED = 1 << 16


def _membership(i: int, options: list[object], negate: bool) -> Callable[[dict[int, Any]], Any]:
    """``values[i] in options`` (``not in`` where ``negate``), element-wise."""
    listed = np.array(options)

    def member(values: dict[int, Any]) -> Any:
        value = np.asarray(values[i])
        if value.size * len(options) > _MOST_COMPARED:
            return np.isin(value, options, invert=negate)
        found = (value[..., None] == listed).any(axis=-1)
        return ~found if negate else found

    return member


class _LinkText:
    """One comparison as a message quotes it (``repr``), written out only when a message
    needs it: unparsing every comparison of a paytable of thousands of long conditions
    took most of its reading."""

    def __init__(self, left: ast.expr, symbol: str, right: ast.expr) -> None:
        self.parts = (left, symbol, right)

    def __repr__(self) -> str:
        left, symbol, right = self.parts
        return repr(_short(f"{ast.unparse(left)} {symbol} {ast.unparse(right)}", 80))


def _check_value(spec: Field, value: object, text: _LinkText) -> None:
    if value not in spec.values:
        allowed = ", ".join(map(repr, spec.values))
        raise AnalyzerError(f"{text!r}: {spec.name} is one of {allowed}")


def _item(node: ast.AST, left: _Typed, text: _LinkText) -> object:
    """The value of one ``in (...)`` item, read from the tree (it must be a constant)."""
    kind = left.kind
    value: object = None
    if kind is int:
        negated = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
        literal = node.operand if negated else node
        if _is_int(literal):
            _check_literal(literal.value)
            value = -literal.value if negated else literal.value
    elif kind is str:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if left.field is not None:
                _check_value(left.field, node.value, text)
            value = node.value
    elif kind is bool:
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            value = node.value
        elif isinstance(node, ast.Name) and node.id in _LITERALS:
            value = _LITERALS[node.id]
    if value is None:
        raise AnalyzerError(f"{text!r}: list items must be {_PLURAL[kind]} constants")
    return value


def _is_int(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int)
        and not isinstance(node.value, bool)
    )


def _check_literal(value: int) -> None:
    if abs(value) > _MAX_INT:
        digits = str(abs(value))
        shown = str(value) if len(digits) <= 30 else f"with {len(digits)} digits"
        raise AnalyzerError(f"integer {shown} is out of range (limit ±{_MAX_INT})")


def _checked_range(node: ast.AST, lo: int, hi: int) -> tuple[int, int]:
    """``(lo, hi)``, unless a value in it does not fit in 64 bits: then refuse the node."""
    if lo < _INT64_MIN or hi > _INT64_MAX:
        reach = hi if hi > _INT64_MAX else lo
        raise AnalyzerError(
            f"arithmetic in {_short(ast.unparse(node))!r} could reach {_show_int(reach)}:"
            " beyond 64-bit integers"
        )
    return lo, hi


#: Nodes that are never an expression nor hold one (operators, contexts): not visited.
_LEAVES = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)


def _depth(tree: ast.AST) -> int:
    """Levels of expression nesting, counted with an explicit stack (no recursion)."""
    deepest = 0
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, ast.expr):
            depth += 1
            deepest = max(deepest, depth)
        for name in node._fields:
            value = getattr(node, name, None)
            for child in value if isinstance(value, list) else (value,):
                if isinstance(child, ast.AST) and not isinstance(child, _LEAVES):
                    stack.append((child, depth))
    return deepest


_PLURAL = {int: "number", str: "string", bool: "true/false"}


def _kind_name(kind: type) -> str:
    return {int: "a number", str: "a string", bool: "true/false"}.get(kind, str(kind))


def _show_int(value: int) -> str:
    """A number for a message: exact while short, else only its side of 2**63."""
    if abs(value) < 10**30:
        return str(value)
    return "more than 2**63" if value > 0 else "less than -2**63"


def _short(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters, so that a message stays short."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _describe(node: ast.AST) -> str:
    try:
        return repr(_short(ast.unparse(node)))
    except Exception:  # unparse of a bare operator node
        return type(node).__name__


def _one_line(text: str) -> str:
    return " ".join(text.split())


def parse_condition(text: str, vocabulary: Vocabulary | None = None) -> Condition:
    """Parse and type-check ``text`` against the fields of punto banco, or of a game's
    ``vocabulary``; raise :class:`AnalyzerError` naming the problem."""
    if not isinstance(text, str):
        raise AnalyzerError(f"a condition must be a string, got {_short(repr(text))}")
    if len(text) > _MAX_LENGTH:
        raise AnalyzerError(f"condition longer than {_MAX_LENGTH} characters")
    try:
        # Warnings (an invalid escape in a string) become syntax errors: one line, no
        # warning text printed on the side.
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        reason = _one_line(str(exc.msg or exc))
        raise AnalyzerError(f"syntax error in condition {text!r}: {reason}") from None
    except (ValueError, Warning) as exc:  # null bytes, on some Python versions
        raise AnalyzerError(f"syntax error in condition {text!r}: {_one_line(str(exc))}") from None
    except (RecursionError, MemoryError):
        raise AnalyzerError(
            f"condition {_short(text)!r} is nested too deeply (limit {MAX_DEPTH} levels)"
        ) from None
    depth = _depth(tree)
    if depth > MAX_DEPTH:
        raise AnalyzerError(
            f"condition {_short(text)!r} is nested too deeply: {depth} levels"
            f" (limit {MAX_DEPTH} levels)"
        )
    compiler = _Compiler(vocabulary)
    typed = compiler.compile(tree)
    if typed.kind is not bool:
        shown = _short(text, 80)
        raise AnalyzerError(f"condition {shown!r} is {_kind_name(typed.kind)}, not true/false")
    literals = {
        name: frozenset(values)
        for name, values in compiler.literals.items()
        if name not in compiler.whole
    }
    relational = frozenset(compiler.whole - compiler.literals.keys())
    return Condition(
        text, frozenset(compiler.fields), typed.evaluate, literals, relational, vocabulary
    )
