"""The condition language: what it means, and that nothing in it is ever executed."""

from __future__ import annotations

import random
from functools import reduce
from itertools import product

import naive
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from analyzer import AnalyzerError, parse_condition
from analyzer.game.fields import FIELDS

COLUMNS = {
    "player_score": np.array([7, 6, 9, 0]),
    "banker_score": np.array([6, 6, 1, 5]),
    "player_cards": np.array([2, 3, 2, 3]),
    "banker_cards": np.array([3, 2, 2, 3]),
    "winner": np.array(["player", "tie", "player", "banker"], dtype=object),
    "natural": np.array([False, False, True, False]),
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("winner == 'player'", [1, 0, 1, 0]),
        ("winner != 'player'", [0, 1, 0, 1]),
        ("player_score - banker_score == 8", [0, 0, 1, 0]),
        ("player_score + banker_cards * 2 == 13", [1, 0, 1, 0]),
        ("not natural and winner in ('player', 'tie')", [1, 1, 0, 0]),
        ("player_cards not in (3,)", [1, 0, 1, 0]),
        ("banker_score in (6, 5) or natural", [1, 1, 1, 1]),
        ("1 <= player_score < 7", [0, 1, 0, 0]),
        ("(winner == 'tie') == false", [1, 0, 1, 1]),
        ("true", [1, 1, 1, 1]),
        ("-player_score < -6", [1, 0, 1, 0]),
    ],
)
def test_meaning(text, expected) -> None:
    mask = parse_condition(text).mask(COLUMNS, 4)
    assert mask.tolist() == [bool(x) for x in expected]


def test_fields_are_reported() -> None:
    assert parse_condition("winner == 'tie' and banker_cards == 2").fields == {
        "winner",
        "banker_cards",
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("__import__('os').system('echo hacked')", "not allowed"),
        ("open('/etc/passwd')", "not allowed"),
        ("player_score.__class__", "not allowed"),
        ("[x for x in ()]", "not allowed"),
        ("lambda: 1", "not allowed"),
        ("player_score ** 2 == 4", "not allowed"),
        ("player_score / 2 == 3", "not allowed"),
        ("player_sore == 1", "unknown field 'player_sore'"),
        ("winner == 'dragon'", "winner is one of"),
        ("winner == 1", "compares a string with a number"),
        ("player_score", "not true/false"),
        ("player_score == ", "syntax error"),
        ("winner < 'tie'", "only numbers can be ordered"),
        ("player_score in 3", "parenthesised list"),
        ("player_score == 1.5", "not allowed"),
        ("player_score == 10**100", "not allowed"),
        ("player_score == 99999999", "out of range"),
        ("natural and 3", "expected true/false"),
    ],
)
def test_refusals(text, message) -> None:
    with pytest.raises(AnalyzerError, match=message):
        parse_condition(text)


PAIRS = {**COLUMNS, "player_pair": np.array([True, False, False, True])}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # D-7: constants beside columns in and/or and in chained comparisons.
        ("winner == 'tie' and true", [0, 1, 0, 0]),
        ("false or winner == 'tie'", [0, 1, 0, 0]),
        ("player_pair and true", [1, 0, 0, 1]),
        ("winner == 'tie' and 1 == 1", [0, 1, 0, 0]),
        ("1 < 2 < player_score", [1, 1, 1, 0]),
        ("0 <= player_score < 5 <= 9", [0, 0, 0, 1]),
        ("0 <= player_score < 5 <= 4", [0, 0, 0, 0]),
        ("true and false", [0, 0, 0, 0]),
        ("1 == 1", [1, 1, 1, 1]),
        ("not true or 'tie' == 'tie'", [1, 1, 1, 1]),
        ("1 in (1, 2)", [1, 1, 1, 1]),
        ("false", [0, 0, 0, 0]),
        # in (...) takes constants only, negative ones too (D-9).
        ("player_score in (-1, 7, 0)", [1, 0, 0, 1]),
        ("-player_score in (-7, 0)", [1, 0, 0, 1]),
        ("player_pair in (true,)", [1, 0, 0, 1]),
        ("player_score in ()", [0, 0, 0, 0]),
        # Arithmetic right up to the 64-bit edge is exact.
        (
            "player_score * 1000000 * 1000000 * 1000000 == 9 * 1000000 * 1000000 * 1000000",
            [0, 0, 1, 0],
        ),
        ("player_score * 0 + -524288 * 524288 * 524288 * 64 < 0", [1, 1, 1, 1]),
        ("not " * 99 + "true", [0, 0, 0, 0]),
    ],
)
def test_hostile_meaning(text, expected) -> None:
    mask = parse_condition(text).mask(PAIRS, 4)
    assert mask.dtype == bool
    assert mask.tolist() == [bool(x) for x in expected]


def test_mask_is_a_fresh_array() -> None:
    column = COLUMNS["natural"].copy()
    mask = parse_condition("natural").mask({**COLUMNS, "natural": column}, 4)
    mask[:] = True
    assert column.tolist() == [False, False, True, False]
    assert parse_condition("true").mask(COLUMNS, 3).flags.writeable


def test_holds_is_read_only_and_leaves_the_column_writable() -> None:
    column = COLUMNS["natural"].copy()
    held = parse_condition("natural").holds({**COLUMNS, "natural": column}, 4)
    assert held.tolist() == [False, False, True, False] and not held.flags.writeable
    column[0] = True  # (the column itself is not made read-only)
    assert parse_condition("true").holds(COLUMNS, 3).tolist() == [True] * 3


@pytest.mark.parametrize("negate", [False, True])
def test_in_agrees_on_short_and_long_columns(negate) -> None:
    """``in`` compares a short column with each option, a long one by lookup (numpy's
    isin): the same rows either way, numbers and text."""
    rng = np.random.default_rng(3)
    scores = rng.integers(0, 10, 30_000)
    winners = np.array(["player", "banker", "tie"])[rng.integers(0, 3, 30_000)]
    word = "not in" if negate else "in"
    for text, column, options in (
        (f"player_score {word} (1, 3, 5, 9)", scores, {1, 3, 5, 9}),
        (f"winner {word} ('tie', 'banker')", winners, {"tie", "banker"}),
    ):
        condition = parse_condition(text)
        expected = [(value in options) != negate for value in column.tolist()]
        name = text.split()[0]
        for rows in (30_000, 7):  # (30,000 rows: past the one-by-one limit)
            mask = condition.mask({name: column[:rows]}, rows)
            assert mask.tolist() == expected[:rows], (text, rows)


F64 = " * ".join(["player_score"] * 64)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # D-2: arithmetic that int64 would wrap is refused, naming the part and its reach.
        (
            f"{F64} == 0",
            r"^arithmetic in 'player_score \* player_score \* .*\.\.\.' could reach"
            r" 12157665459056928801: beyond 64-bit integers$",
        ),
        (
            "player_score * 1000000 * 1000000 * 1000000 * 1000000 > 0",
            r"^arithmetic in 'player_score \* 1000000 \* 1000000 \* 1000000 \* 1000000'"
            r" could reach 9000000000000000000000000: beyond 64-bit integers$",
        ),
        (
            "player_score * 1000000 * 1000000 * 1000000 * 2 > 0",
            r"could reach 18000000000000000000: beyond 64-bit integers$",
        ),
        (
            "524288 * 524288 * 524288 * 64 > 0",
            r"could reach 9223372036854775808: beyond 64-bit integers$",
        ),
        (
            "-524288 * 524288 * 524288 * 64 - 1 < 0",
            r"could reach -9223372036854775809: beyond 64-bit integers$",
        ),
        (
            "-(-524288 * 524288 * 524288 * 64) > 0",
            r"could reach 9223372036854775808: beyond 64-bit integers$",
        ),
        (
            "(-1000000 * 1000000 * 1000000) * (1000000 * 1000000 * 1000000) < player_third",
            r"could reach less than -2\*\*63: beyond 64-bit integers$",
        ),
        (
            "(1000000 * 1000000 * 1000000) * (1000000 * 1000000 * 1000000) > 0",
            r"could reach more than 2\*\*63: beyond 64-bit integers$",
        ),
        ("player_score == " + "9" * 40, r"^integer with 40 digits is out of range"),
        # D-6: nesting is measured before anything recursive looks at the tree.
        ("not " * 496 + "true", r"nested too deeply: 497 levels \(limit 100 levels\)$"),
        ("player_score == " + "-" * 1980 + "1", r"nested too deeply: 1982 levels"),
        ("player_score == " + "+".join(["1"] * 990), r"nested too deeply: 991 levels"),
        ("not " * 100 + "true", r"nested too deeply: 101 levels \(limit 100 levels\)$"),
        # D-9: list items are constants, read from the tree.
        (
            "player_score in (banker_score, 1)",
            r"^'player_score in \(banker_score, 1\)': list items must be number constants$",
        ),
        (
            "player_score in (-banker_score, 1)",
            r"^'player_score in \(-banker_score, 1\)': list items must be number constants$",
        ),
        ("player_score in (1 + 1,)", "list items must be number constants"),
        ("player_score in (--1,)", "list items must be number constants"),
        ("player_score in ('tie',)", "list items must be number constants"),
        ("player_score in (2000000,)", "out of range"),
        ("winner in ('tie', 1)", "list items must be string constants"),
        ("winner in ('dragon',)", "winner is one of"),
        ("natural in (true, player_pair)", "list items must be true/false constants"),
        ("1 in (1, 2) in (3,)", r"'\(1, 2\)' is not allowed"),
        # `is` is named, with what to write instead.
        ("winner is 'tie'", r"""^"winner is 'tie'": 'is' is not allowed, use ==$"""),
        ("winner is not 'tie'", r"'is not' is not allowed, use !=$"),
        ("player_score ~ 1", "syntax error"),
        ("winner == 'a\\d'", "syntax error .*invalid escape sequence"),
        ("player_score == 1\x00", "syntax error"),
        ("-true", "is a number, not true/false"),
        ("player_score == +1", "not allowed"),
    ],
)
def test_hostile_refusals(text, message) -> None:
    with pytest.raises(AnalyzerError, match=message) as caught:
        parse_condition(text)
    assert "\n" not in str(caught.value)
    assert len(str(caught.value)) < 200


def test_messages_are_one_line() -> None:
    for text in [
        "winner ==\n'tie'",
        "(winner\n== 'x')",
        "'\n'",
        "player_score in (\n'tie')",
        "winner == '''a\nb'''",
        "f'{1}'",
    ]:
        with pytest.raises(AnalyzerError) as caught:
            parse_condition(text)
        assert "\n" not in str(caught.value), text


INT_FIELDS = sorted(naive.CONDITION_FIELD_RANGES)

BOOL_FIELDS = [
    "natural",
    "player_natural",
    "banker_natural",
    "player_pair",
    "banker_pair",
    "player_suited_pair",
    "banker_suited_pair",
]

ORDER_OPS = ["<", "<=", ">", ">=", "==", "!="]

ARITHMETIC = {"add": "+", "sub": "-", "mul": "*"}

# Python's binding strength: the renderer adds exactly the parentheses the tree needs.
PRECEDENCE = {"or": 1, "and": 2, "not": 3, "compare": 4, "in": 4, "add": 5, "sub": 5}

PRECEDENCE |= {"mul": 6, "neg": 7}


def _precedence(tree) -> int:
    if tree[0] == "int" and tree[1] < 0:
        return PRECEDENCE["neg"]  # "-5" is unary minus on 5
    return PRECEDENCE.get(tree[0], 8)


def _wrap(tree, parenthesise: bool) -> str:
    text = render(tree)
    return f"({text})" if parenthesise else text


def render(tree) -> str:
    """The condition text of a naive tree (see tests/naive.py)."""
    kind = tree[0]
    if kind == "field":
        return tree[1]
    if kind in ("int", "str"):
        return repr(tree[1])
    if kind == "bool":
        return "true" if tree[1] else "false"
    if kind == "neg":
        return "-" + _wrap(tree[1], _precedence(tree[1]) < PRECEDENCE["neg"])
    if kind in ARITHMETIC:
        p = PRECEDENCE[kind]
        left = _wrap(tree[1], _precedence(tree[1]) < p)
        right = _wrap(tree[2], _precedence(tree[2]) <= p)  # left-associative
        return f"{left} {ARITHMETIC[kind]} {right}"
    if kind == "not":
        return "not " + _wrap(tree[1], _precedence(tree[1]) < PRECEDENCE["not"])
    if kind in ("and", "or"):
        p = PRECEDENCE[kind]
        return f" {kind} ".join(_wrap(value, _precedence(value) <= p) for value in tree[1])
    if kind == "compare":
        operands, ops = tree[1], tree[2]
        parts = [_wrap(operands[0], _precedence(operands[0]) <= 4)]
        for op, operand in zip(ops, operands[1:], strict=True):
            parts.append(f"{op} {_wrap(operand, _precedence(operand) <= 4)}")
        return " ".join(parts)
    if kind == "in":
        items = ", ".join(repr(item) for item in tree[2]) + ("," if len(tree[2]) == 1 else "")
        left = _wrap(tree[1], _precedence(tree[1]) <= 4)
        return f"{left} {'not in' if tree[3] else 'in'} ({items})"
    raise KeyError(kind)


def _fields_of(tree) -> set[str]:
    kind = tree[0]
    if kind == "field":
        return {tree[1]}
    if kind in ("neg", "not", "in"):
        return _fields_of(tree[1])
    if kind in ARITHMETIC:
        return _fields_of(tree[1]) | _fields_of(tree[2])
    if kind in ("and", "or", "compare"):
        return set().union(*(_fields_of(child) for child in tree[1]))
    return set()


_LITERALS = st.one_of(
    st.integers(-12, 12),
    st.integers(-(10**6), 10**6),
    st.sampled_from([10**6, -(10**6), 524288]),
)


def _product_tree(factors) -> tuple:
    return reduce(lambda a, b: ("mul", a, b), factors)


_BIG = st.one_of(
    st.integers(1000, 10**6),
    st.integers(-(10**6), -1000),
    st.sampled_from([10**6, -(10**6), 524288]),
)

# Products of fields and large literals land on both sides of the 64-bit edge.
_PRODUCTS = st.lists(
    st.one_of(
        st.sampled_from(INT_FIELDS).map(lambda name: ("field", name)),
        _BIG.map(lambda n: ("int", n)),
    ),
    min_size=2,
    max_size=8,
).map(_product_tree)


def int_trees(depth: int) -> st.SearchStrategy:
    leaf = st.one_of(
        st.sampled_from(INT_FIELDS).map(lambda name: ("field", name)),
        _LITERALS.map(lambda n: ("int", n)),
        _PRODUCTS,
    )
    if depth == 0:
        return leaf
    sub = int_trees(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(st.sampled_from(sorted(ARITHMETIC)), sub, sub),
        sub.map(lambda e: ("neg", e)),
    )


def _chain(n: int) -> st.SearchStrategy:
    return st.tuples(
        st.just("compare"),
        st.lists(int_trees(3), min_size=n + 1, max_size=n + 1).map(tuple),
        st.lists(st.sampled_from(ORDER_OPS), min_size=n, max_size=n).map(tuple),
    )


def bool_trees(depth: int) -> st.SearchStrategy:
    winners = st.sampled_from(["player", "banker", "tie"])
    leaf = st.one_of(
        st.booleans().map(lambda b: ("bool", b)),
        st.sampled_from(BOOL_FIELDS).map(lambda name: ("field", name)),
        st.tuples(st.sampled_from(["==", "!="]), winners).map(
            lambda t: ("compare", (("field", "winner"), ("str", t[1])), (t[0],))
        ),
        st.integers(1, 3).flatmap(_chain),
        st.tuples(
            st.just("in"),
            int_trees(2),
            st.lists(_LITERALS, max_size=4).map(tuple),
            st.booleans(),
        ),
        st.tuples(
            st.just("in"),
            st.just(("field", "winner")),
            st.lists(winners, max_size=3).map(tuple),
            st.booleans(),
        ),
    )
    if depth == 0:
        return leaf
    sub = bool_trees(depth - 1)
    return st.one_of(
        leaf,
        sub.map(lambda e: ("not", e)),
        st.tuples(st.sampled_from(["and", "or"]), st.lists(sub, min_size=2, max_size=3)).map(
            lambda t: (t[0], tuple(t[1]))
        ),
        st.tuples(sub, st.sampled_from(["==", "!="]), sub).map(
            lambda t: ("compare", (t[0], t[2]), (t[1],))
        ),
    )


def _rows() -> list[dict]:
    rng = random.Random(20261130)
    keys = list(product(range(10), range(10), range(-1, 10), range(-1, 10)))
    picked = rng.sample(keys, 150)
    picked += [(0, 0, -1, -1), (9, 9, 9, 9), (9, 0, -1, 9), (0, 9, 9, -1), (8, 8, -1, -1)]
    return [naive.condition_row(*key, rng.randrange(3), rng.randrange(3)) for key in picked]


ROWS = _rows()

TABLE = {
    name: np.array([row[name] for row in ROWS], dtype=np.int64 if kind is int else None)
    for name, kind in FIELDS.items()
    if name in ROWS[0]  # the round-level fields naive.condition_row gives
}

TABLE["winner"] = np.asarray(TABLE["winner"], dtype=str)

PS = ("field", "player_score")


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bool_trees(2))
@example(("compare", (_product_tree([PS] * 64), ("int", 0)), ("==",)))
@example(("compare", (_product_tree([PS] * 20), ("int", 0)), (">",)))
@example(("compare", (_product_tree([PS] * 19), ("int", 0)), (">",)))
@example(("compare", (_product_tree([PS] + [("int", 10**6)] * 4), ("int", 0)), (">",)))
@example(("compare", (_product_tree([PS] + [("int", 10**6)] * 3), ("int", 0)), (">",)))
@example(("and", (("compare", (("field", "winner"), ("str", "tie")), ("==",)), ("bool", True))))
@example(("compare", (("int", 0), PS, ("int", 5), ("int", 9)), ("<=", "<", "<=")))
@example(("in", ("neg", PS), (-7, 0), False))
def test_conditions_agree_with_big_integers(tree) -> None:
    _settle_both_ways(tree)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.tuples(
        st.one_of(
            _PRODUCTS,
            _PRODUCTS.map(lambda e: ("neg", e)),
            st.tuples(st.sampled_from(sorted(ARITHMETIC)), _PRODUCTS, _PRODUCTS),
        ),
        st.sampled_from(ORDER_OPS),
        int_trees(1),
    )
)
def test_arithmetic_agrees_with_big_integers(parts) -> None:
    """Near the 64-bit edge, on both sides of it."""
    big, op, other = parts
    _settle_both_ways(("compare", (big, other), (op,)))


def _settle_both_ways(tree) -> None:
    """The project's mask equals the naive one on every row, or the project refuses the
    condition for 64-bit arithmetic exactly when the naive interval bound leaves int64."""
    text = render(tree)
    assume(len(text) <= 2000)
    try:
        condition = parse_condition(text)
    except AnalyzerError as exc:
        assert "beyond 64-bit integers" in str(exc), (text, str(exc))
        assert "\n" not in str(exc)
        assert naive.condition_overflows(tree), text
        return
    assert not naive.condition_overflows(tree), text
    assert condition.fields == _fields_of(tree)
    mask = condition.mask(TABLE, len(ROWS))
    assert mask.dtype == bool
    assert mask.shape == (len(ROWS),)
    expected = [bool(naive.evaluate_condition(tree, row)) for row in ROWS]
    assert mask.tolist() == expected, text


_TOKENS = [
    "player_score",
    "banker_third",
    "winner",
    "natural",
    "'tie'",
    "'x'",
    "0",
    "7",
    "1000000",
    "10000000",
    "(",
    ")",
    ",",
    "and",
    "or",
    "not",
    "==",
    "<",
    "in",
    "is",
    "+",
    "-",
    "*",
    "/",
    "**",
    "true",
    "1.5",
    "[",
    "]",
    "lambda",
    ":",
    ".",
    "\n",
    "if",
    "else",
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=12).map(" ".join))
def test_any_text_gives_a_mask_or_one_line(text) -> None:
    try:
        condition = parse_condition(text)
    except AnalyzerError as exc:
        assert "\n" not in str(exc)
        return
    mask = condition.mask(TABLE, len(ROWS))
    assert mask.dtype == bool
    assert mask.shape == (len(ROWS),)


def test_true_and_false_count_as_one_and_zero_in_arithmetic() -> None:
    columns = {
        "player_card1_rank": np.array(["9", "9", "2", "9"]),
        "banker_card1_rank": np.array(["9", "3", "9", "K"]),
        "natural": np.array([True, False, True, False]),
    }
    nines = parse_condition("(player_card1_rank == '9') + (banker_card1_rank == '9') == 2")
    assert nines.mask(columns, 4).tolist() == [True, False, False, False]
    mixed = parse_condition("2 * natural - (banker_card1_rank == 'K') == -1")
    assert mixed.mask(columns, 4).tolist() == [False, False, False, True]
    with pytest.raises(AnalyzerError, match="not true/false"):
        parse_condition("natural + 1")


def test_text_fields_compared_only_with_other_fields_are_relational() -> None:
    condition = parse_condition(
        "player_card1_suit == banker_card1_suit and banker_card1_suit != 'S'"
        " and player_card2_suit in ('H',) and player_card3_suit == player_card1_rank"
    )
    assert condition.relational == {"player_card1_suit", "player_card3_suit", "player_card1_rank"}
    assert condition.literals == {"player_card2_suit": {"H"}}
