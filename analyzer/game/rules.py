"""The drawing rules of the game as data, the players' decisions, and one round played.

A rule set (:class:`DrawingRules`) says, for every cell of the tableau, whether the hand
draws, stands or *chooses* (a decision cell, played by a :class:`Strategy`). A rule set and
a strategy that decides every cell purely make a :class:`Tableau`: the whole third-card rule
as one table, which every kernel, the dealer and ``play`` read and nothing else::

    third_card[player2, banker2, PLAYER_DRAWS]   does the Player draw a third card?
    third_card[player2, banker2, x]              does the Banker draw, after the
                                                 Player's third card of value x (0-9)?
    third_card[player2, banker2, PLAYER_STOOD]   does the Banker draw, the Player standing?

with ``player2``/``banker2`` the two-card scores. Kernels take the table as an argument
(a global would be frozen into Numba's on-disk cache). The two questions are asked through
:func:`player_draws` and :func:`banker_draws`, written once here; the kernels use them
compiled (:mod:`analyzer.engine.draw`), ``play`` as they are.

A mixed strategy (draw with probability 9/11, say) is exact too: a round passes at most
one decision cell of each hand, so every figure is a polynomial of degree one in each
Player cell's probability and in each Banker cell's, with no product of two cells of one
hand. :meth:`DrawingRules.mixture` writes it as a weighted sum of pure tableaus (the
weights exact fractions summing to 1), which the engines walk one by one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import field
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from typing import Any

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.files import shipped_folder, toml_data
from analyzer.game.cards import Card
from analyzer.memo import Pattern
from analyzer.records import record
from analyzer.schema import argument, check_keys, sequence_of

#: Two-card scores that make a natural in the standard game: nobody draws.
NATURAL_SCORES = (8, 9)

#: The burn of a new shoe: the dealer shows its first card and burns as many more as the
#: card's point value says (Ace 1 ... 9 9; a ten or face card, value 0, burns 10). By
#: point value.
BURN_BY_VALUE = np.array([10, 1, 2, 3, 4, 5, 6, 7, 8, 9], dtype=np.int64)
BURN_BY_VALUE.setflags(write=False)

#: The standard Player draws on a two-card 0-5 and stands on 6-7.
PLAYER_DRAWS_ON = range(0, 6)

#: The standard Banker's table: Banker two-card score -> point values of the Player's third
#: card on which the Banker draws (on 0-2 always; on 7 never). When the Player stood, the
#: Banker draws on 0-5 like the Player would.
BANKER_DRAWS_ON: dict[int, tuple[int, ...]] = {
    0: tuple(range(10)),
    1: tuple(range(10)),
    2: tuple(range(10)),
    3: (0, 1, 2, 3, 4, 5, 6, 7, 9),
    4: (2, 3, 4, 5, 6, 7),
    5: (4, 5, 6, 7),
    6: (6, 7),
    7: (),
}

#: Columns of a third-card table beside the Player's third-card values 0-9.
PLAYER_STOOD = 10
PLAYER_DRAWS = 11

#: What a hand does in one cell of the tableau.
DRAW, STAND, CHOOSE = "draw", "stand", "choose"
ACTIONS = (DRAW, STAND, CHOOSE)
#: The totals a tableau covers.
TOTALS = range(10)


def player_draws(third_card: np.ndarray, player2: int, banker2: int) -> bool:
    """Does the Player draw on two-card scores ``player2``, ``banker2``?"""
    return third_card[player2, banker2, PLAYER_DRAWS]


def banker_draws(third_card: np.ndarray, player2: int, banker2: int, player_third: int) -> bool:
    """Does the Banker draw, after the Player's third card of value ``player_third``
    (0-9), or :data:`PLAYER_STOOD` when the Player stood?"""
    return third_card[player2, banker2, player_third]


# -- Cells and strategies ------------------------------------------------------------------


@record
class Cell:
    """One cell of the tableau: the Player's two-card ``total``, or the Banker's with the
    Player's third-card value in ``column`` (0-9) or :data:`PLAYER_STOOD`."""

    hand: str  # "player" or "banker"
    total: int
    column: int | None = None

    def __str__(self) -> str:
        if self.hand == "player":
            return f"player:{self.total}"
        after = "stood" if self.column == PLAYER_STOOD else str(self.column)
        return f"banker:{self.total}/{after}"


def cell_order(cell: Cell) -> tuple[int, int, int]:
    """Cells as a tableau reads: the Player's first, then the Banker's by total and
    third-card value (stood last)."""
    return (cell.hand != "player", cell.total, -1 if cell.column is None else cell.column)


_CELL = Pattern(r"(player):([0-9])|(banker):([0-9])/([0-9]|stood)")


def parse_cell(text: str) -> Cell:
    """``player:5``, ``banker:3/9`` (Banker total / Player's third-card value) or
    ``banker:6/stood``."""
    match = _CELL.fullmatch(text.strip().lower())
    if not match:
        raise AnalyzerError(
            f"bad decision cell {text[:40]!r}: write player:T, banker:T/V or banker:T/stood "
            "(T a two-card total 0-9, V the Player's third-card value 0-9)"
        )
    if match[1]:
        return Cell("player", int(match[2]))
    column = PLAYER_STOOD if match[5] == "stood" else int(match[5])
    return Cell("banker", int(match[4]), column)


def parse_choice(text: object, where: str) -> Fraction:
    """``draw`` (1), ``stand`` (0) or an exact probability of drawing (``9/11``, ``0.25``)."""
    if not isinstance(text, str):
        raise AnalyzerError(f"{where}: a choice is draw, stand or a probability such as 9/11")
    word = text.strip().lower()
    if word == DRAW:
        return Fraction(1)
    if word == STAND:
        return Fraction(0)
    if not re.fullmatch(r"[0-9]{1,12}(/[0-9]{1,12}|\.[0-9]{1,12})?", word):
        raise AnalyzerError(
            f"{where}: bad choice {text[:40]!r}: use draw, stand or a probability of drawing "
            "such as 9/11 or 0.25"
        )
    if word.endswith("/0") or re.fullmatch(r".*/0+", word):
        raise AnalyzerError(f"{where}: bad choice {text!r}: division by zero")
    probability = Fraction(word)
    if not 0 <= probability <= 1:
        raise AnalyzerError(f"{where}: the probability {text!r} is outside [0, 1]")
    return probability


@record
class Strategy:
    """How decision cells are played: the probability of drawing in each cell named."""

    choices: tuple[tuple[Cell, Fraction], ...] = ()

    @property
    def probability(self) -> dict[Cell, Fraction]:
        """The probability of drawing in each decided cell."""
        return dict(self.choices)

    def __str__(self) -> str:
        return ",".join(f"{cell}={choice_text(p)}" for cell, p in self.choices)

    def updated(self, other: Strategy) -> Strategy:
        """This strategy with the cells of ``other`` played as ``other`` says."""
        merged = self.probability | other.probability
        return strategy_of(merged)

    @property
    def fingerprint(self) -> list[list[str]]:
        """The strategy as plain lists of text (a run's and a cache's key)."""
        return [[str(cell), str(p)] for cell, p in self.choices]


def choice_text(probability: Fraction) -> str:
    """``draw``, ``stand``, or the probability of drawing (``9/11``)."""
    return DRAW if probability == 1 else STAND if probability == 0 else str(probability)


def parse_strategy(value: object, where: str = "strategy") -> Strategy:
    """A strategy from ``"player:5=9/11,banker:3/9=draw"`` or from a table of the same
    cells and choices (a paytable's ``[strategy]``)."""
    if isinstance(value, str):
        items = []
        for part in value.split(","):
            if not part.strip():
                continue
            if part.strip().lower() == "best":
                raise AnalyzerError(
                    f"{where}: best plays every decision cell: give --strategy best alone, on "
                    "the command line (a file names each cell's play)"
                )
            cell, equals, choice = part.partition("=")
            if not equals:
                raise AnalyzerError(
                    f"{where}: {part.strip()[:40]!r} needs '=': write CELL=draw, CELL=stand "
                    "or CELL=p (e.g. player:5=9/11)"
                )
            items.append((cell, choice))
        if not items:
            raise AnalyzerError(f"{where}: names no cell (e.g. player:5=draw)")
    elif isinstance(value, Mapping):
        items = list(value.items())
    else:
        raise AnalyzerError(f"{where}: must be text such as 'player:5=draw' or a table")
    if len(items) > 200:
        raise AnalyzerError(f"{where}: names more than 200 cells (a tableau has 120)")
    choices: dict[Cell, Fraction] = {}
    for text, choice in items:
        if not isinstance(text, str):
            raise AnalyzerError(f"{where}: a cell is text such as player:5")
        cell = parse_cell(text)
        if cell in choices:
            raise AnalyzerError(f"{where}: the cell {cell} is played twice")
        choices[cell] = parse_choice(choice, f"{where}: {cell}")
    return strategy_of(choices)


def strategy_of(choices: Mapping[Cell, Fraction]) -> Strategy:
    """The strategy that draws in each cell with the probability given, cells in order."""
    return Strategy(tuple(sorted(choices.items(), key=lambda item: cell_order(item[0]))))


#: The strategy that decides nothing (rules without decision cells need no more).
NO_STRATEGY = Strategy()


# -- A pure tableau ------------------------------------------------------------------------


@record(eq=False)
class Tableau:
    """A rule set with every decision cell played purely: the third-card table (see the
    module docstring) and the naturals. Two tableaus with the same table are equal; its
    :attr:`key` names it in caches."""

    third_card: np.ndarray
    naturals: tuple[int, ...]
    #: The table's and naturals' bytes: what two equal tableaus share.
    identity: bytes = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.third_card.setflags(write=False)
        object.__setattr__(self, "identity", self.third_card.tobytes() + bytes(self.naturals))

    @cached_property
    def key(self) -> str:
        """A digest of the table and naturals (worked out when first asked for)."""
        import hashlib  # (here: a command that names no tableau in a cache never needs it)

        return hashlib.sha256(self.identity).hexdigest()[:16]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tableau) and self.identity == other.identity

    def __hash__(self) -> int:
        return hash(self.identity)


def _table_of(
    naturals: frozenset[int],
    player: Sequence[Fraction],
    banker: Sequence[Sequence[Fraction]],
    dtype: type,
) -> np.ndarray:
    """The third-card table (draw probabilities, or draws as booleans) of a tableau whose
    cells are each drawn with the probability given."""
    table = np.zeros((10, 10, 12), dtype=dtype)
    for player2 in TOTALS:
        for banker2 in TOTALS:
            if player2 in naturals or banker2 in naturals:
                continue  # a natural: nobody draws
            table[player2, banker2, PLAYER_DRAWS] = dtype(player[player2])
            table[player2, banker2, :PLAYER_DRAWS] = [dtype(p) for p in banker[banker2]]
    return table


# -- A rule set ----------------------------------------------------------------------------


@record
class DrawingRules:
    """What each hand does in every cell: ``player[t]`` on the Player's two-card total
    ``t``; ``banker[b][x]`` on the Banker's ``b`` after the Player's third card of value
    ``x`` (0-9), ``banker[b][PLAYER_STOOD]`` when the Player stood. Cells are
    :data:`DRAW`, :data:`STAND` or :data:`CHOOSE`; a natural total stands in every cell."""

    name: str
    naturals: tuple[int, ...]
    player: tuple[str, ...]
    banker: tuple[tuple[str, ...], ...]
    #: Where a shipped rule set comes from.
    source: str = field(default="", compare=False)

    @property
    def is_standard(self) -> bool:
        """Whether these rules draw as the standard tableau does."""
        return self.table == STANDARD.table

    @property
    def decision_cells(self) -> tuple[Cell, ...]:
        """The cells where a hand decides, the Player's first, then the Banker's."""
        cells = [Cell("player", t) for t in TOTALS if self.player[t] == CHOOSE]
        for b in TOTALS:
            for x in range(PLAYER_STOOD + 1):
                if self.banker[b][x] == CHOOSE:
                    cells.append(Cell("banker", b, x))
        return tuple(cells)

    def action(self, cell: Cell) -> str:
        """What the rules say in ``cell``: ``"draw"``, ``"stand"`` or ``"choose"``."""
        if cell.hand == "player":
            return self.player[cell.total]
        return self.banker[cell.total][cell.column]

    def played(self, strategy: Strategy | None) -> dict[Cell, Fraction]:
        """The probability of drawing in every decision cell; a strategy that leaves one
        undecided, or plays a cell that is not a decision, is one clear error."""
        strategy = strategy or Strategy()
        self.check_strategy(strategy)
        chosen = strategy.probability
        undecided = [str(cell) for cell in self.decision_cells if cell not in chosen]
        if undecided:
            shown = ", ".join(undecided[:_CELLS_SHOWN])
            if len(undecided) > _CELLS_SHOWN:
                shown += f" and {len(undecided) - _CELLS_SHOWN} more cells"
            raise AnalyzerError(
                f"the rules {self.name!r} leave {shown} to the players: give a strategy (e.g. "
                f'--strategy "{undecided[0]}=draw", or best), or [strategy] in the paytable'
            )
        return {cell: chosen[cell] for cell in self.decision_cells}

    def check_strategy(self, strategy: Strategy) -> None:
        """Refuse a strategy that plays a cell which is not a decision of these rules."""
        cells = set(self.decision_cells)
        for cell, _ in strategy.choices:
            if cell not in cells:
                what = "has a natural" if cell.total in self.naturals else self.action(cell) + "s"
                raise AnalyzerError(
                    f"strategy: {cell} is not a decision cell of the rules {self.name!r} "
                    f"(there the {cell.hand.title()} {what}; decision cells: "
                    f"{', '.join(map(str, self.decision_cells)) or 'none'})"
                )

    def _probabilities(
        self, chosen: Mapping[Cell, Fraction]
    ) -> tuple[list[Fraction], list[list[Fraction]]]:
        def draw(action: str, cell: Cell) -> Fraction:
            return Fraction(action == DRAW) if action != CHOOSE else chosen[cell]

        player = [draw(self.player[t], Cell("player", t)) for t in TOTALS]
        banker = [
            [draw(self.banker[b][x], Cell("banker", b, x)) for x in range(PLAYER_STOOD + 1)]
            for b in TOTALS
        ]
        return player, banker

    def draw_probabilities(self, strategy: Strategy | None = None) -> np.ndarray:
        """The third-card table as probabilities of drawing (float64, read-only; the
        dealer draws a uniform number against it where a cell is mixed)."""
        return _draw_probabilities(self, strategy or NO_STRATEGY)

    def mixture(self, strategy: Strategy | None = None) -> tuple[tuple[Fraction, Tableau], ...]:
        """Pure tableaus and exact weights (summing to 1) whose weighted sum of any
        figure is the figure under ``strategy`` (see the module docstring). Worked out
        once per rule set and strategy."""
        return _mixture(self, strategy or NO_STRATEGY)

    def _mixture(self, strategy: Strategy) -> tuple[tuple[Fraction, Tableau], ...]:
        chosen = self.played(strategy)
        mixed = {cell: p for cell, p in chosen.items() if 0 < p < 1}
        pure = {cell: p for cell, p in chosen.items() if p in (0, 1)}
        players = [cell for cell in mixed if cell.hand == "player"]
        bankers = [cell for cell in mixed if cell.hand == "banker"]
        # F(p, q) = A + sum_i p_i (F_i - A) + sum_j q_j (F_j - A)
        #         + sum_ij p_i q_j (F_ij - F_i - F_j + A), F_S: the cells S drawn, the other
        #         mixed cells stood (exact: no round passes two cells of one hand).
        weights: dict[tuple[Cell, ...], Fraction] = {(): Fraction(1)}

        def add(cells: tuple[Cell, ...], weight: Fraction) -> None:
            weights[cells] = weights.get(cells, Fraction(0)) + weight

        for cell in players + bankers:
            add((cell,), mixed[cell])
            add((), -mixed[cell])
        for i in players:
            for j in bankers:
                w = mixed[i] * mixed[j]
                add((i, j), w)
                add((i,), -w)
                add((j,), -w)
                add((), w)
        out = []
        for drawn, weight in weights.items():
            if weight == 0:
                continue
            probabilities = pure | {cell: Fraction(cell in drawn) for cell in mixed}
            player, banker = self._probabilities(probabilities)
            table = _table_of(frozenset(self.naturals), player, banker, bool)
            out.append((weight, Tableau(table, self.naturals)))
        return tuple(out)

    def tableau(self, strategy: Strategy | None = None) -> Tableau:
        """The one tableau of a pure strategy (a mixed one is an error naming the cell)."""
        chosen = self.played(strategy)
        for cell, p in chosen.items():
            if p not in (0, 1):
                raise AnalyzerError(
                    f"the strategy mixes {cell} ({p}): here each cell must be drawn or stood"
                )
        ((_, tableau),) = self.mixture(strategy)
        return tableau

    @property
    def table(self) -> dict[str, Any]:
        """The rules as a ``[rules]`` table (every key given), for fingerprints and pages."""

        def cells(actions: Sequence[str], action: str, over: range) -> str:
            return _ranges([i for i in over if actions[i] == action])

        non_natural = [b for b in TOTALS if b not in self.naturals]
        stood = [self.banker[b][PLAYER_STOOD] for b in TOTALS]
        return {
            "naturals": _ranges(self.naturals),
            "player_draws": cells(self.player, DRAW, TOTALS),
            "player_chooses": cells(self.player, CHOOSE, TOTALS),
            "banker_draws_when_player_stands": cells(stood, DRAW, TOTALS),
            "banker_chooses_when_player_stands": cells(stood, CHOOSE, TOTALS),
            "banker_draws": {str(b): cells(self.banker[b], DRAW, range(10)) for b in non_natural},
            "banker_chooses": {
                str(b): cells(self.banker[b], CHOOSE, range(10))
                for b in non_natural
                if CHOOSE in self.banker[b][:PLAYER_STOOD]
            },
        }


@lru_cache(maxsize=256)
def _mixture(rules: DrawingRules, strategy: Strategy) -> tuple[tuple[Fraction, Tableau], ...]:
    return rules._mixture(strategy)


@lru_cache(maxsize=256)
def _draw_probabilities(rules: DrawingRules, strategy: Strategy) -> np.ndarray:
    player, banker = rules._probabilities(rules.played(strategy))
    table = _table_of(frozenset(rules.naturals), player, banker, float)
    table.setflags(write=False)
    return table


def _ranges(values: Sequence[int]) -> str:
    """``[0, 1, 2, 3, 5, 7, 9]`` as ``"0-3,5,7,9"``; ``[]`` as ``""``."""
    values = sorted(values)
    parts: list[str] = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        parts.append(str(values[i]) if i == j else f"{values[i]}-{values[j]}")
        i = j + 1
    return ",".join(parts)


#: Decision cells an error message names at most (a table may have 120).
_CELLS_SHOWN = 6


def _digit(text: str) -> int | None:
    """A total 0-9 written with any leading zeros, or None."""
    digits = text.lstrip("0") or "0"
    return int(digits) if len(digits) == 1 else None


def parse_values(value: object, where: str, key: str) -> tuple[int, ...]:
    """``"0-7,9"``, ``"5"`` or ``""`` as the digits 0-9 it lists."""
    if not isinstance(value, str):
        raise AnalyzerError(f'{where}: {key!r} must be text listing totals, such as "0-5"')
    out: list[int] = []
    for part in value.split(","):
        part = part.strip()
        if not part:
            if value.strip():
                raise AnalyzerError(f"{where}: {key!r}: an empty item in {value[:40]!r}")
            continue
        match = re.fullmatch(r"([0-9]+)\s*(?:-\s*([0-9]+))?", part)
        if not match:
            raise AnalyzerError(
                f"{where}: {key!r}: {part[:20]!r} is not a digit 0-9 or a range such as 0-5"
            )
        # A total is one digit (leading zeros aside): "0007" is 7, "0010" is outside 0-9.
        low, high = (_digit(text) for text in (match[1], match[2] or match[1]))
        if low is None or high is None:
            raise AnalyzerError(f"{where}: {key!r}: {part[:20]!r} is outside 0-9")
        if low > high:
            raise AnalyzerError(f"{where}: {key!r}: the range {part!r} runs backwards")
        out.extend(range(low, high + 1))
    if len(set(out)) != len(out):
        raise AnalyzerError(f"{where}: {key!r} lists a value twice in {value[:40]!r}")
    return tuple(sorted(out))


_RULE_KEYS = {
    "naturals",
    "player_draws",
    "player_chooses",
    "banker_draws_when_player_stands",
    "banker_chooses_when_player_stands",
    "banker_draws",
    "banker_chooses",
    "name",
    "source",
}


def rules_from_table(
    data: Mapping[str, Any], where: str = "rules", *, shipped: str | None = None
) -> DrawingRules:
    """A rule set from a ``[rules]`` table (see the README); omitted keys take the
    standard tableau's value (less the totals the table makes naturals or decisions);
    every problem is one line naming the key. ``shipped``: the name of the shipped rule
    set being read (no other table may take a shipped name)."""
    check_keys(data, _RULE_KEYS, where)
    standard = STANDARD.table
    naturals = parse_values(data.get("naturals", standard["naturals"]), where, "naturals")

    def get(key: str) -> Any:
        if key in data:
            return data[key]
        omitted = parse_values(standard.get(key, ""), where, key)
        return ",".join(str(t) for t in omitted if t not in naturals)

    player_draws_on = parse_values(get("player_draws"), where, "player_draws")
    player_chooses = parse_values(data.get("player_chooses", ""), where, "player_chooses")
    stood_draws = parse_values(
        get("banker_draws_when_player_stands"), where, "banker_draws_when_player_stands"
    )
    stood_chooses = parse_values(
        data.get("banker_chooses_when_player_stands", ""),
        where,
        "banker_chooses_when_player_stands",
    )
    for key, totals in (
        ("player_draws", player_draws_on),
        ("player_chooses", player_chooses),
        ("banker_draws_when_player_stands", stood_draws),
        ("banker_chooses_when_player_stands", stood_chooses),
    ):
        natural = sorted(set(totals) & set(naturals))
        if natural:
            raise AnalyzerError(
                f"{where}: {key!r} lists {_ranges(natural)}, a natural (nobody draws on a natural)"
            )
    # An omitted key's standard value gives way to the cells the table says are chosen.
    if "player_draws" not in data:
        player_draws_on = tuple(t for t in player_draws_on if t not in player_chooses)
    if "banker_draws_when_player_stands" not in data:
        stood_draws = tuple(b for b in stood_draws if b not in stood_chooses)
    _no_overlap(where, "player", player_draws_on, player_chooses)
    _no_overlap(where, "banker when the Player stands", stood_draws, stood_chooses)
    non_natural = [b for b in TOTALS if b not in naturals]
    draws_by_total = _by_total(data, "banker_draws", where, non_natural, required=True)
    chooses_by_total = _by_total(data, "banker_chooses", where, non_natural, required=False)
    if "banker_draws" not in data:
        draws_by_total = {
            b: tuple(x for x in draws if x not in chooses_by_total.get(b, ()))
            for b, draws in draws_by_total.items()
        }
    player = tuple(
        DRAW if t in player_draws_on else CHOOSE if t in player_chooses else STAND for t in TOTALS
    )
    banker = []
    for b in TOTALS:
        draws, chooses = draws_by_total.get(b, ()), chooses_by_total.get(b, ())
        _no_overlap(where, f"banker on {b}", draws, chooses)
        row = [DRAW if x in draws else CHOOSE if x in chooses else STAND for x in range(10)]
        row.append(DRAW if b in stood_draws else CHOOSE if b in stood_chooses else STAND)
        banker.append(tuple(row))
    name = shipped or data.get("name", "custom")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9-]{0,39}", name):
        raise AnalyzerError(f"{where}: 'name' must be lower-case letters, digits and -")
    if shipped is None and name in RULE_SET_NAMES:
        raise AnalyzerError(
            f"{where}: 'name' {name!r} is a shipped rule set's: a table of your own takes "
            f'another name (to play the shipped one, write rules = "{name}")'
        )
    source = data.get("source", "")
    if not isinstance(source, str) or len(source) > 2000:
        raise AnalyzerError(f"{where}: 'source' must be text of at most 2,000 characters")
    return DrawingRules(name, naturals, player, tuple(banker), source)


def _no_overlap(where: str, whose: str, draws: Sequence[int], chooses: Sequence[int]) -> None:
    both = sorted(set(draws) & set(chooses))
    if both:
        raise AnalyzerError(
            f"{where}: the {whose} both draws and chooses on {_ranges(both)}: a cell is drawn, "
            "chosen or stands, never two of these"
        )


def _by_total(
    data: Mapping[str, Any], key: str, where: str, non_natural: list[int], *, required: bool
) -> dict[int, tuple[int, ...]]:
    """``banker_draws``/``banker_chooses``: Banker total -> Player third-card values."""
    if key not in data:
        if not required:
            return {}
        return {b: BANKER_DRAWS_ON.get(b, ()) for b in non_natural}
    value = data[key]
    if not isinstance(value, Mapping):
        raise AnalyzerError(
            f'{where}: {key!r} must be a table of Banker totals, such as {{ 3 = "0-7,9" }}'
        )
    out = {}
    for total, values in value.items():
        if not (isinstance(total, str) and re.fullmatch(r"[0-9]", total.strip())):
            raise AnalyzerError(f"{where}: {key!r}: {str(total)[:20]!r} is not a Banker total 0-9")
        b = int(total)
        if b in out:
            raise AnalyzerError(f"{where}: {key!r} gives the Banker total {b} twice")
        if b not in non_natural:
            raise AnalyzerError(
                f"{where}: {key!r}: the Banker total {b} is a natural (nobody draws on it)"
            )
        out[b] = parse_values(values, where, f"{key}.{b}")
    if required:
        missing = [b for b in non_natural if b not in out]
        if missing:
            raise AnalyzerError(
                f"{where}: {key!r} has no Banker total {_ranges(missing)}: every total "
                f'{_ranges(non_natural)} must be covered ("" where the Banker stands)'
            )
    return out


# -- The shipped rule sets ------------------------------------------------------------------


def _standard() -> DrawingRules:
    player = tuple(DRAW if t in PLAYER_DRAWS_ON else STAND for t in TOTALS)
    banker = []
    for b in TOTALS:
        draws = () if b in NATURAL_SCORES else BANKER_DRAWS_ON[b]
        row = [DRAW if x in draws else STAND for x in range(10)]
        row.append(DRAW if b in PLAYER_DRAWS_ON else STAND)
        banker.append(tuple(row))
    return DrawingRules(
        "standard", NATURAL_SCORES, player, tuple(banker), "the rules of every help page"
    )


#: The standard tableau (the help pages' rules).
STANDARD: DrawingRules = _standard()

#: The third-card rule of the standard game: see the module docstring.
THIRD_CARD: np.ndarray = STANDARD.tableau().third_card

#: The rule sets a paytable may name (``rules = "baccarat-gold"``): data files in
#: ``analyzer/game/rule_sets/``, each citing its source.
RULE_SET_NAMES = ("standard", "baccarat-gold", "bahamian", "chemin-de-fer")


@cache
def named_rules(name: str) -> DrawingRules:
    """A shipped rule set by name (:data:`RULE_SET_NAMES`); an unknown name is one line."""
    argument(name, str, "rules", " (a rule set's name)")
    if name not in RULE_SET_NAMES:
        raise AnalyzerError(
            f"unknown rule set {name[:40]!r} (rule sets: {', '.join(RULE_SET_NAMES)}, or a "
            "[rules] table)"
        )
    folder = shipped_folder("analyzer.game", "rule_sets")
    data = toml_data((folder / f"{name}.toml").read_bytes(), keep=True)
    return rules_from_table(data, f"rule set {name!r}", shipped=name)


def hand_score(cards: Sequence[Card]) -> int:
    """Sum of point values modulo 10."""
    return sum(card.value for card in cards) % 10


def is_natural(score: int, naturals: Sequence[int] = NATURAL_SCORES) -> bool:
    return score in naturals


@record
class Round:
    """One dealt round and why each hand drew or stood."""

    player_cards: tuple[Card, ...]
    banker_cards: tuple[Card, ...]
    player_reason: str
    banker_reason: str
    naturals: tuple[int, ...] = NATURAL_SCORES

    @property
    def player_score(self) -> int:
        """The Player's final score, 0-9."""
        return hand_score(self.player_cards)

    @property
    def banker_score(self) -> int:
        """The Banker's final score, 0-9."""
        return hand_score(self.banker_cards)

    @property
    def natural(self) -> bool:
        """Whether either hand's first two cards are a natural."""
        return is_natural(hand_score(self.player_cards[:2]), self.naturals) or is_natural(
            hand_score(self.banker_cards[:2]), self.naturals
        )

    @property
    def winner(self) -> str:
        """``"player"``, ``"banker"`` or ``"tie"``."""
        if self.player_score > self.banker_score:
            return "player"
        if self.banker_score > self.player_score:
            return "banker"
        return "tie"


def _drawn(probability: float, cell: Cell, strategy: Strategy | None) -> bool:
    """Whether a hand draws in a cell of draw ``probability``: a mixed cell cannot say
    for one round, and is one line naming it."""
    if 0 < probability < 1:
        p = (strategy.probability if strategy else {})[cell]
        raise AnalyzerError(
            f"the strategy mixes {cell} (draws with probability {p}): a dealt round needs it "
            f"drawn or stood (e.g. --strategy {cell}=draw)"
        )
    return probability == 1


def cards_needed(
    cards: Sequence[Card], rules: DrawingRules | None = None, strategy: Strategy | None = None
) -> int:
    """How many cards the round dealt from ``cards`` uses, given the first four (4, 5 or 6)."""
    rules = STANDARD if rules is None else rules
    table = rules.draw_probabilities(strategy)
    player2, banker2 = hand_score(cards[0:3:2]), hand_score(cards[1:4:2])
    if _drawn(player_draws(table, player2, banker2), Cell("player", player2), strategy):
        if len(cards) < 5:
            return 5
        third = cards[4].value
        drawn = _drawn(
            banker_draws(table, player2, banker2, third), Cell("banker", banker2, third), strategy
        )
        return 6 if drawn else 5
    stood = Cell("banker", banker2, PLAYER_STOOD)
    return 5 if _drawn(banker_draws(table, player2, banker2, PLAYER_STOOD), stood, strategy) else 4


def deal_round(
    cards: Sequence[Card],
    rules: DrawingRules | None = None,
    strategy: Strategy | None = None,
) -> Round:
    """Play one round from cards in deal order: P, B, P, B, then third cards as required,
    under ``rules`` (default: the standard tableau) played by a pure ``strategy``."""
    cards = sequence_of(cards, Card, "cards", "Card objects", " (see parse_cards)")
    rules = STANDARD if rules is None else argument(rules, DrawingRules, "rules")
    if strategy is not None:
        argument(strategy, Strategy, "strategy", " (see parse_strategy)")
    rules.played(strategy)  # every decision cell decided (mixed ones: if reached)
    if len(cards) < 4:
        raise AnalyzerError(
            "too few cards: a round starts with 4 (Player, Banker, Player, Banker), "
            f"got {len(cards)}"
        )
    needed = cards_needed(cards, rules, strategy)
    if len(cards) < needed:
        raise AnalyzerError(f"too few cards: this round needs {needed} cards, got {len(cards)}")
    if len(cards) > needed:
        extra = " ".join(str(c) for c in cards[needed:])
        raise AnalyzerError(f"too many cards: this round uses {needed}; unused: {extra}")
    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    player2, banker2 = hand_score(player), hand_score(banker)
    naturals = rules.naturals
    if is_natural(player2, naturals) or is_natural(banker2, naturals):
        shown = [
            f"{name} {score}"
            for name, score in (("Player", player2), ("Banker", banker2))
            if is_natural(score, naturals)
        ]
        reason = f"natural ({' and '.join(shown)}): no one draws"
        return Round(tuple(player), tuple(banker), reason, reason, naturals)
    played = strategy.probability if strategy else {}
    table = rules.draw_probabilities(strategy)  # 0 or 1 in every cell this round reaches
    rest = list(cards[4:])
    why_player = _why(rules, Cell("player", player2), played)
    if player_draws(table, player2, banker2):
        player.append(rest.pop(0))
        player_reason = f"Player has {player2} ({why_player}): draws {player[2]}"
        column = player[2].value
        seen = f"Banker has {banker2} and Player's third card is worth {column}"
    else:
        player_reason = f"Player has {player2} ({why_player}): stands"
        column = PLAYER_STOOD
        seen = f"Player stood and Banker has {banker2}"
    why_banker = _why(rules, Cell("banker", banker2, column), played)
    seen += f" ({why_banker})" if why_banker else ""
    if banker_draws(table, player2, banker2, column):
        banker.append(rest.pop(0))
        banker_reason = f"{seen}: draws {banker[2]}"
    else:
        banker_reason = f"{seen}: stands"
    return Round(tuple(player), tuple(banker), player_reason, banker_reason, naturals)


def _why(rules: DrawingRules, cell: Cell, played: Mapping[Cell, Fraction]) -> str:
    """Why a hand drew or stood in ``cell``: the rule's range (``0-5``), or the strategy."""
    action = rules.action(cell)
    if action == CHOOSE:
        return f"a decision: the strategy {choice_text(played[cell])}s"
    if cell.hand == "player":
        return _ranges([t for t in TOTALS if rules.player[t] == action and t not in rules.naturals])
    if cell.column == PLAYER_STOOD:
        stood = [b for b in TOTALS if rules.banker[b][PLAYER_STOOD] == action]
        return _ranges([b for b in stood if b not in rules.naturals])
    return ""  # the Banker's table: the cell itself is the reason


STANDARD_TABLEAU: Tableau = STANDARD.tableau()

#: Pure tableaus and their weights: how the hands draw under a strategy (see
#: :meth:`DrawingRules.mixture`).
Mixture = tuple[tuple[Fraction, Tableau], ...]
#: The standard game's: one tableau.
STANDARD_MIXTURE: Mixture = ((Fraction(1), STANDARD_TABLEAU),)
