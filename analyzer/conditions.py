"""Bet conditions: a tiny, safe expression language over the outcome table's fields.

``winner == 'banker' and banker_score == 6 and banker_cards in (2, 3)``

A condition is parsed with :func:`ast.parse` (which never runs code) and every node is
checked against a short allow-list: ``and or not``, parentheses, comparisons, ``in (...)``,
integer ``+ - *``, integers, strings, ``true``/``false`` and the field names of
:data:`analyzer.outcomes.FIELDS`. It is then evaluated column-wise with numpy.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.outcomes import FIELDS, WINNERS

Columns = Mapping[str, np.ndarray]
_Eval = Callable[[Columns], object]

_MAX_LENGTH = 2000
_MAX_INT = 10**6
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
}


@dataclass(frozen=True)
class Condition:
    """A parsed condition: ``mask(columns)`` is a boolean array over the table's rows."""

    text: str
    fields: frozenset[str]
    _evaluate: _Eval = field(repr=False, compare=False)

    def mask(self, columns: Columns, n_rows: int) -> np.ndarray:
        return np.broadcast_to(np.asarray(self._evaluate(columns), dtype=bool), (n_rows,))


class _Compiler:
    """Type-checks an AST and turns it into a closure over the columns."""

    def __init__(self) -> None:
        self.fields: set[str] = set()

    def compile(self, node: ast.AST) -> tuple[type, _Eval]:
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise AnalyzerError(f"{_describe(node)} is not allowed in a condition")
        return method(node)

    def _expect(self, node: ast.AST, want: type) -> _Eval:
        kind, fn = self.compile(node)
        if kind is not want:
            raise AnalyzerError(
                f"{ast.unparse(node)!r} is {_kind_name(kind)}, expected {_kind_name(want)}"
            )
        return fn

    def _Name(self, node: ast.Name) -> tuple[type, _Eval]:
        if node.id in _LITERALS:
            value = _LITERALS[node.id]
            return bool, lambda cols: value
        if node.id not in FIELDS:
            known = ", ".join(FIELDS)
            raise AnalyzerError(f"unknown field {node.id!r} (fields: {known})")
        self.fields.add(node.id)
        name = node.id
        return FIELDS[name], lambda cols: cols[name]

    def _Constant(self, node: ast.Constant) -> tuple[type, _Eval]:
        value = node.value
        if isinstance(value, bool):
            return bool, lambda cols: value
        if isinstance(value, int):
            if abs(value) > _MAX_INT:
                raise AnalyzerError(f"integer {value} is out of range")
            return int, lambda cols: value
        if isinstance(value, str):
            return str, lambda cols: value
        raise AnalyzerError(f"constant {value!r} is not allowed: use integers, strings, true/false")

    def _UnaryOp(self, node: ast.UnaryOp) -> tuple[type, _Eval]:
        if isinstance(node.op, ast.Not):
            inner = self._expect(node.operand, bool)
            return bool, lambda cols: np.logical_not(inner(cols))
        if isinstance(node.op, ast.USub):
            inner = self._expect(node.operand, int)
            return int, lambda cols: np.negative(inner(cols))
        raise AnalyzerError(f"{_describe(node)} is not allowed in a condition")

    def _BinOp(self, node: ast.BinOp) -> tuple[type, _Eval]:
        op = _ARITHMETIC.get(type(node.op))
        if op is None:
            raise AnalyzerError(f"operator in {ast.unparse(node)!r} is not allowed: use + - *")
        left, right = self._expect(node.left, int), self._expect(node.right, int)
        return int, lambda cols: op(left(cols), right(cols))

    def _BoolOp(self, node: ast.BoolOp) -> tuple[type, _Eval]:
        parts = [self._expect(value, bool) for value in node.values]
        combine = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
        return bool, lambda cols: combine.reduce([np.asarray(p(cols)) for p in parts])

    def _Compare(self, node: ast.Compare) -> tuple[type, _Eval]:
        links = []
        left_node = node.left
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            links.append(self._comparison(left_node, op, right_node))
            left_node = right_node
        if len(links) == 1:
            return bool, links[0]
        return bool, lambda cols: np.logical_and.reduce([np.asarray(f(cols)) for f in links])

    def _comparison(self, left_node: ast.AST, op: ast.cmpop, right_node: ast.AST) -> _Eval:
        left_kind, left = self.compile(left_node)
        text = f"{ast.unparse(left_node)} {_SYMBOLS.get(type(op), '?')} {ast.unparse(right_node)}"
        if isinstance(op, (ast.In, ast.NotIn)):
            if not isinstance(right_node, (ast.Tuple, ast.List, ast.Set)):
                raise AnalyzerError(f"{text!r}: 'in' needs a parenthesised list, e.g. (1, 2)")
            options = [self._literal(item, left_kind, text) for item in right_node.elts]
            negate = isinstance(op, ast.NotIn)
            return lambda cols: np.isin(left(cols), options, invert=negate)
        right_kind, right = self.compile(right_node)
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
            for side in (left_node, right_node):
                if isinstance(side, ast.Constant) and side.value not in WINNERS:
                    raise AnalyzerError(
                        f"{text!r}: winner is one of {', '.join(map(repr, WINNERS))}"
                    )
        return lambda cols: fn(left(cols), right(cols))

    def _literal(self, node: ast.AST, kind: type, text: str) -> object:
        item_kind, fn = self.compile(node)
        if item_kind is not kind or not isinstance(node, (ast.Constant, ast.Name, ast.UnaryOp)):
            raise AnalyzerError(f"{text!r}: list items must be {_kind_name(kind)} constants")
        value = fn({})
        if kind is str and value not in WINNERS:
            raise AnalyzerError(f"{text!r}: winner is one of {', '.join(map(repr, WINNERS))}")
        return value

    def _Expression(self, node: ast.Expression) -> tuple[type, _Eval]:
        return self.compile(node.body)


def _kind_name(kind: type) -> str:
    return {int: "a number", str: "a string", bool: "true/false"}.get(kind, str(kind))


def _describe(node: ast.AST) -> str:
    try:
        return repr(ast.unparse(node))
    except Exception:  # unparse of a bare operator node
        return type(node).__name__


def parse_condition(text: str) -> Condition:
    """Parse and type-check ``text``; raise :class:`AnalyzerError` naming the problem."""
    if not isinstance(text, str):
        raise AnalyzerError(f"a condition must be a string, got {text!r}")
    if len(text) > _MAX_LENGTH:
        raise AnalyzerError(f"condition longer than {_MAX_LENGTH} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise AnalyzerError(f"syntax error in condition {text!r}: {exc.msg}") from None
    compiler = _Compiler()
    kind, fn = compiler.compile(tree)
    if kind is not bool:
        raise AnalyzerError(f"condition {text!r} is {_kind_name(kind)}, not true/false")
    return Condition(text, frozenset(compiler.fields), fn)
