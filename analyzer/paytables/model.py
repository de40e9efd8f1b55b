"""Paytables: bets as data.

A paytable is a plain mapping (what ``tomllib`` returns for a paytable file):

- ``name``, ``decks``, ``modes`` (betting modes offered, e.g. ``["commission",
  "no_commission"]``);
- ``bet``: a list of bets, each with ``id``, ``name``, optional ``names`` (language ->
  name), optional ``max_round``, optional ``modes`` (default: every mode) and ``rule``: an
  ordered list of ``{when = "<condition>", pays = "a:b" | number | "push" | "lose"}``.
- Words for help pages, all optional: a bet's ``description`` (what it wins on) and
  ``note`` (a remark on its payout), with ``descriptions``/``notes`` in other languages;
  a rule's ``label`` (the payout line's words, "Player wins") and ``labels``.

The first rule whose condition holds settles the round; a round no rule matches loses the
stake. Nothing in a paytable is executed: conditions go through
:mod:`analyzer.paytables.conditions`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field, replace
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

from analyzer.errors import AnalyzerError
from analyzer.files import check_untrusted
from analyzer.game.games import (
    DECIDED_FIELDS,
    GAME_MULTIPLY,
    PUNTO_BANCO_HANDS,
    Decision,
    Game,
    counted_field,
    decision_from_table,
    game_from_table,
    lost_share,
    named_game,
)
from analyzer.game.identities import KIND_CARDS, MULTIPLY_KINDS
from analyzer.game.rules import (
    NO_STRATEGY,
    STANDARD,
    DrawingRules,
    Strategy,
    Tableau,
    named_rules,
    parse_strategy,
    rules_from_table,
)
from analyzer.game.shoe import check_decks
from analyzer.memo import Pattern
from analyzer.paytables.conditions import Condition, parse_condition
from analyzer.records import record
from analyzer.schema import (
    argument,
    check_keys,
    check_name,
    exact_number,
    list_of,
    optional,
    optional_note,
    require,
    table,
    whole_number,
)

if TYPE_CHECKING:
    from analyzer.paytables.multipliers import Multipliers

_ODDS = Pattern(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*:\s*([0-9]+(?:\.[0-9]+)?)\s*$")
#: Bet ids and mode names are identifiers: typed on the command line, keys in JSON, and
#: never two that look alike (the words people read come from ``name`` and i18n).
_IDENTIFIER = Pattern(r"[a-z][a-z0-9_]{0,63}")  # fullmatch: "$" would let a final newline in
_MAX_PAYOUT = 10**9
#: Longest payout text read (an "a:b" of many digits is refused, never converted).
_MAX_PAYOUT_TEXT = 40
#: ... and of a payout linear in the multiplier.
_MAX_LINEAR_TEXT = 80
#: The highest max round a bet may name (a shoe of 27 decks deals under 400 rounds).
MAX_ROUND = 10**6
#: Longest name (of a paytable, bet or mode) accepted.
_MAX_NAME = 200
#: Longest help-page text (a bet's description or note, a rule's label) accepted.
_MAX_TEXT = 500
#: The languages of the help pages: a paytable's words are in English (``name``,
#: ``description``, ...) and may be given in the others (``names``, ``descriptions``, ...).
LANGUAGES = ("en", "tl", "ms")
#: Mode names that the commands reserve for "every mode".
RESERVED_MODES = ("both", "all")
#: The main bets, by id: the bets on the Player's and the Banker's hand. A paytable that
#: offers one is a game, whose maximum RTP a help page states; one of side bets only has
#: no game's RTP to state, only its best bet's.
MAIN_BETS = ("player", "banker")
#: The commands that take a paytable of any game of the family (:mod:`analyzer.game.games`);
#: the others deal Player and Banker hands and refuse another game
#: (:meth:`Paytable.require_punto_banco` names these).
EVERY_GAME_COMMANDS = (
    "report", "verify", "docs", "eor", "play", "simulate", "count", "dealt", "audit",
)  # fmt: skip
#: The commands that take a punto banco paytable with a player's ``[decision]``
#: (:meth:`Paytable.require_played_as_dealt` names these): ``play`` and ``simulate`` play
#: each bet of the decision by its strategy (or the action given); the others refuse it.
DECISION_COMMANDS = (
    "report", "verify", "fit", "docs", "strategy", "eor", "play", "simulate", "count", "dealt",
    "audit",
)  # fmt: skip


@record
class Payout:
    """What a rule pays: ``net`` is the result per unit staked (win > 0, push 0, lose -1),
    plus ``per_multiplier`` times the round's multiplier for a payout such as
    ``"multiplier - 0.05"`` (odds to one, linear in the multiplier)."""

    text: str
    net: Fraction
    per_multiplier: Fraction = Fraction(0)
    #: Pays the bet's progressive jackpot: ``net`` is then the meter (in stakes), and the
    #: line wins, or pushes at a meter of 0, by that net like any other.
    jackpot: bool = False

    @cached_property  # read per line of every analysis
    def kind(self) -> str:
        if self.per_multiplier:
            return "win"
        return result_kind(self.net)

    @property
    def pays(self) -> bool:
        """Is it among what the bet pays, as a help page lists it (the report's payouts, a
        ``payouts`` claim): a win, or the progressive jackpot whatever the meter?"""
        return self.jackpot or self.kind == "win"

    @property
    def multiplied(self) -> bool:
        return self.per_multiplier != 0

    def __str__(self) -> str:
        return self.text


def result_kind(net: Fraction) -> str:
    """A round's result by what it nets per unit staked, before any fee: "win" above 0,
    "push" at 0 (the stake comes back), "lose" below. Every line of an analysis (a
    jackpot's at its meter included) and every round ``play`` deals is classed here."""
    return "win" if net > 0 else "push" if net == 0 else "lose"


PUSH = Payout("push", Fraction(0))
LOSE = Payout("lose", Fraction(-1))


#: The word a payout names the round's multiplier by, and the progressive jackpot.
MULTIPLIER = "multiplier"
JACKPOT = "jackpot"
#: The largest jackpot meter read (in stakes).
MAX_METER = 10**12
_NUMBER = r"[0-9]{1,12}(?:\.[0-9]{1,12}|/[0-9]{1,12})?"
_LINEAR_TERM = Pattern(
    rf"\s*([+-])?\s*(?:({_NUMBER})\s*\*\s*{MULTIPLIER}|{MULTIPLIER}\s*\*\s*({_NUMBER})"
    rf"|{MULTIPLIER}\s*/\s*({_NUMBER})|({MULTIPLIER})|({_NUMBER}))\s*"
)


def _linear_payout(value: str) -> Payout:
    """``"multiplier"``, ``"5 * multiplier"``, ``"multiplier - 0.05"``: odds to one as
    ``a + b * multiplier``, ``b > 0`` (positivity over the multipliers a bet can have is
    checked with the bet's model)."""
    usage = (
        "a payout linear in the multiplier: terms such as 5 * multiplier, multiplier, 0.95 "
        "joined by + or -"
    )
    constant, slope, position, first = Fraction(0), Fraction(0), 0, True
    text = value.strip()
    while position < len(text):
        match = _LINEAR_TERM.match(text, position)
        if not match or match.end() == position or (match[1] is None and not first):
            raise AnalyzerError(f"bad payout {_short(value)}: use {usage}")
        sign = -1 if match[1] == "-" else 1
        try:
            if match[4]:  # multiplier / number
                slope += sign / Fraction(match[4])
            elif match[2] or match[3] or match[5]:
                slope += sign * Fraction(match[2] or match[3] or 1)
            else:
                constant += sign * Fraction(match[6])
        except ZeroDivisionError:
            raise AnalyzerError(f"bad payout {_short(value)}: division by zero") from None
        position, first = match.end(), False
    if slope <= 0:
        raise AnalyzerError(
            f"bad payout {_short(value)}: the multiplier must raise the payout (use {usage})"
        )
    if abs(constant) > _MAX_PAYOUT or slope > _MAX_PAYOUT:
        raise AnalyzerError(f"bad payout {_short(value)}: at most {_MAX_PAYOUT:,}:1 is allowed")
    return Payout(text, constant, slope)


def parse_payout(value: object) -> Payout:
    """``"a:b"`` odds to one, a number (odds to one), ``"push"``, ``"lose"``, a partial loss
    (``"lose 1/2"``: that share of the stake lost), or odds to one linear in the round's
    multiplier (``"multiplier - 0.05"``).

    A win pays more than 0 and at most ``_MAX_PAYOUT`` to one; non-finite numbers (TOML's
    ``inf``, ``nan``, ``1e400``) are refused.
    """
    usage = '"a:b" (odds to one), a number, "push", "lose" or "lose 1/2" (half the stake)'
    if isinstance(value, bool):
        raise AnalyzerError(f"bad payout {value!r}: use {usage}")
    if isinstance(value, float) and not math.isfinite(value):
        raise AnalyzerError(f"bad payout {value!r}: not a finite number; use {usage}")
    if isinstance(value, (int, float)):
        if abs(value) > _MAX_PAYOUT:
            raise AnalyzerError(f"bad payout {_short(value)}: at most {_MAX_PAYOUT:,}:1 is allowed")
        net = Fraction(str(value))
        text = f"{value}:1"
    elif isinstance(value, str):
        word = value.strip().lower()
        if word == "push":
            return PUSH
        if word == JACKPOT:
            return Payout(JACKPOT, Fraction(0), jackpot=True)  # the meter: the bet's
        if word == "lose":
            return LOSE
        if word.startswith("lose"):
            return _partial_loss(value)
        limit = _MAX_LINEAR_TEXT if MULTIPLIER in word[:_MAX_LINEAR_TEXT] else _MAX_PAYOUT_TEXT
        if len(value) > limit:
            raise AnalyzerError(f"bad payout {_short(value)}: longer than {limit} characters")
        if MULTIPLIER in word:
            return _linear_payout(word)
        match = _ODDS.match(value)
        if not match:
            raise AnalyzerError(f"bad payout {_short(value)}: use {usage}")
        a, b = Fraction(match[1]), Fraction(match[2])
        if b == 0:
            raise AnalyzerError(f"bad payout {value!r}: division by zero")
        net, text = a / b, value.strip()
    else:
        raise AnalyzerError(f"bad payout {_short(value)}: use {usage}")
    if net <= 0:
        raise AnalyzerError(f'bad payout {value!r}: a win must pay more than 0 (use "push")')
    if net > _MAX_PAYOUT:
        raise AnalyzerError(f"bad payout {_short(value)}: at most {_MAX_PAYOUT:,}:1 is allowed")
    return Payout(text, net)


def _partial_loss(value: str) -> Payout:
    """``"lose 1/2"`` (or ``"lose half"``, ``"lose 0.5"``): the bet loses that share of
    the stake and the rest comes back, as Dragon Tiger's Dragon and Tiger bets do on a
    tie. The share lies in (0, 1]; its text is the fraction, ``"lose 1/2"``
    (:func:`~analyzer.game.games.lost_share` reads it, as a fold's ``pays``)."""
    share = lost_share(value, f"bad payout {_short(value)}")
    if share == 1:
        return LOSE
    return Payout(f"lose {share}", -share)


def _short(value: object) -> str:
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**30 else "(a huge number)"
    return text if len(text) <= 40 else text[:37] + "..."


def in_language(texts: Mapping[str, str], lang: str) -> str | None:
    """The text in ``lang``, else in English, else None."""
    return texts.get(lang, texts.get("en"))


@record
class Rule:
    condition: Condition
    payout: Payout
    #: The payout line's words per language (``label`` is "en"), for help pages.
    labels: Mapping[str, str] = field(default_factory=dict)


@record
class Jackpot:
    """A progressive jackpot: its ``meter`` now (in stakes of the bet), the ``reset``
    meter it starts again from after a hit (the paytable's ``meter``), and the
    ``contribution`` of each stake to it."""

    meter: Fraction
    contribution: Fraction
    reset: Fraction


def _jackpot(data: Mapping[str, Any], rules: list[Rule], where: str) -> Jackpot | None:
    """A bet's ``jackpot = { meter, contribution }``, given exactly when a rule pays it."""
    paying = [i for i, rule in enumerate(rules, 1) if rule.payout.jackpot]
    if "jackpot" not in data:
        if paying:
            raise AnalyzerError(
                f"{where}: rule {paying[0]} pays the jackpot, but the bet has no 'jackpot' "
                '(e.g. jackpot = { meter = "10000", contribution = "0.01" })'
            )
        return None
    spec = table(data["jackpot"], where, "'jackpot' (a table with 'meter' and 'contribution')")
    check_keys(spec, {"meter", "contribution"}, f"{where}: jackpot")
    for key in ("meter", "contribution"):
        if key not in spec:
            raise AnalyzerError(f"{where}: jackpot: missing {key!r}")
    meter = exact_number(spec["meter"], f"{where}: jackpot", "'meter'")
    if meter > MAX_METER:
        raise AnalyzerError(f"{where}: jackpot: 'meter' is at most {MAX_METER:,} stakes")
    contribution = exact_number(spec["contribution"], f"{where}: jackpot", "'contribution'")
    if contribution >= 1:
        raise AnalyzerError(f"{where}: jackpot: 'contribution' is a share of the stake, below 1")
    if not paying:
        raise AnalyzerError(f"{where}: 'jackpot' is given but no rule pays it (pays = \"jackpot\")")
    return Jackpot(meter, contribution, meter)


@record
class Bet:
    id: str
    name: str
    rules: tuple[Rule, ...]
    max_round: int | None = None
    modes: tuple[str, ...] | None = None  # None: offered in every mode of the paytable
    names: Mapping[str, str] = field(default_factory=dict)
    #: What the bet wins on, and a remark on its payout, per language ("en" from
    #: ``description`` and ``note``), for help pages.
    descriptions: Mapping[str, str] = field(default_factory=dict)
    notes: Mapping[str, str] = field(default_factory=dict)
    #: Whose cards the round's multiplier counts (one of MULTIPLY_KINDS), and the
    #: paytable's multiplier distribution; None for a bet paid a fixed amount.
    multiply: str | None = None
    multipliers: Multipliers | None = None
    #: Paid per unit staked on top of the stake, whatever the result (the paytable's).
    fee: Fraction = Fraction(0)
    #: A progressive jackpot: the meter (in stakes, what a rule paying ``jackpot`` nets)
    #: and the share of each stake that goes to it; None without one.
    jackpot: Jackpot | None = None
    #: Other names help pages give the bet, in any language ("P. Pair"): what ``certify``
    #: reads as the bet besides its names (never shown by the tool).
    aliases: tuple[str, ...] = ()

    def with_meter(self, meter: Fraction) -> Bet:
        """The bet with its jackpot's meter at ``meter`` (its jackpot rules net it)."""
        if self.jackpot is None:
            raise AnalyzerError(f"bet {self.id!r} has no jackpot")
        rules = tuple(
            replace(rule, payout=replace(rule.payout, net=meter)) if rule.payout.jackpot else rule
            for rule in self.rules
        )
        return replace(self, rules=rules, jackpot=replace(self.jackpot, meter=meter))

    @property
    def on_punto_banco(self) -> bool:
        """Is the bet on punto banco's round (its conditions in punto banco's fields), not
        on another game of the family?"""
        return all(rule.condition.vocabulary is None for rule in self.rules)

    @property
    def multiplied(self) -> bool:
        """Is the bet paid by the round's random multiplier?"""
        return self.multiply is not None

    @property
    def fixed_payouts(self) -> bool:
        """Does every rule pay one constant per unit staked, with no fee (its settlement
        key is then its rules alone, as it was before fees and multipliers)?"""
        return not self.multiplied and not self.fee

    @cached_property  # read several times per bet priced
    def fields(self) -> frozenset[str]:
        """Every field the bet is settled on: those its conditions read and, for a
        multiplied bet of another game of the family, the pattern of its counted cards
        (:func:`~analyzer.game.games.counted_field`: the deal walk tells their suits
        apart where the multiplier depends on them)."""
        fields = frozenset().union(*(rule.condition.fields for rule in self.rules))
        if self.multiplied and not self.on_punto_banco:
            fields |= {counted_field(self.multiply, self.multipliers.by)}
        return fields

    @property
    def card_level(self) -> bool:
        """Does the bet look at the cards themselves (ranks, suits, colours of single
        cards), so that only the card-level walk settles it exactly?"""
        return any(
            rule.condition.definition(name).card_level
            for rule in self.rules
            for name in rule.condition.fields
        )

    @property
    def literals(self) -> dict[str, frozenset[str]]:
        """Text fields every rule compares only with constants, and all those constants:
        the card-level walk need only tell these values apart (see Condition.literals)."""
        out: dict[str, frozenset[str]] = {}
        for name in self.fields:
            uses = [rule.condition for rule in self.rules if name in rule.condition.fields]
            if all(name in condition.literals for condition in uses):
                out[name] = frozenset().union(*(c.literals[name] for c in uses))
        return out

    @property
    def relational(self) -> frozenset[str]:
        """Text fields every rule compares only with other fields, never with a constant:
        the card-level walk need only tell which of them are equal (see
        Condition.relational)."""
        return frozenset(
            name
            for name in self.fields
            if all(
                name in rule.condition.relational
                for rule in self.rules
                if name in rule.condition.fields
            )
        )

    @property
    def settlement(self) -> tuple[tuple[str, Fraction], ...]:
        """What settles the bet: each rule's condition and net, in order. Two bets with
        the same settlement pay the same on every round (a key for compiled caches)."""
        rules = tuple((rule.condition.text, rule.payout.net) for rule in self.rules)
        if self.fixed_payouts:
            return rules
        slopes = tuple(rule.payout.per_multiplier for rule in self.rules)
        return (*rules, ("fee", self.fee), ("multiply", self.multiply), ("slopes", slopes))

    def offered_in(self, mode: str) -> bool:
        """Whether the bet is on offer in betting mode ``mode``."""
        return self.modes is None or mode in self.modes

    def display_name(self, lang: str = "en") -> str:
        """The bet's name in language ``lang`` (its English name where it has none)."""
        return self.names.get(lang, self.name)


@record
class Paytable:
    name: str
    decks: int
    modes: tuple[str, ...]
    bets: tuple[Bet, ...]
    source: str = "<paytable>"
    #: The drawing rules, and how their decision cells are played (it may leave some
    #: undecided: a command's ``--strategy`` decides them).
    rules: DrawingRules = STANDARD
    strategy: Strategy = NO_STRATEGY
    #: Paid per unit staked on top of every bet, and the random multipliers' distribution.
    fee: Fraction = Fraction(0)
    multipliers: Multipliers | None = None
    #: The unknowns of the multipliers' distribution and their ranges, (name, low, high).
    unknowns: tuple[tuple[str, Fraction, Fraction], ...] = ()
    #: The sha256 of the file the paytable was read from (hex), so that an output can say
    #: which file gave its figures; empty for a paytable built in Python. Not part of the
    #: paytable's identity (two files of the same bets are the same paytable).
    sha256: str = field(default="", compare=False)
    #: Alternative pay tables of one bet, as a research file gathers them from its sources:
    #: (a game's name, its bets' ids), each bet in one. Help pages make each a game of its
    #: own; the figures are the same as the whole file's (not part of the identity).
    alternatives: tuple[tuple[str, tuple[str, ...]], ...] = field(default=(), compare=False)
    #: The game the bets are on: None for punto banco (Player and Banker, the drawing
    #: ``rules``), else a game of :mod:`analyzer.game.games` (its own hands, no drawing).
    game: Game | None = None
    #: Punto banco's ``[decision]`` (a game's is in the game): see :attr:`decision`.
    punto_banco_decision: Decision | None = None
    #: The decision played the user's way (``--decisions``): the action of each
    #: information set (:mod:`analyzer.paytables.played`); None: each bet's best play.
    played: Any = None

    @property
    def decision(self) -> Decision | None:
        """The player's decision: the game's, or punto banco's ``[decision]`` (None: the
        bets are played one way)."""
        return self.game.decision if self.game is not None else self.punto_banco_decision

    @property
    def decision_hands(self) -> Game:
        """The game whose cards the decision names, with the decision: the paytable's
        game, or punto banco's hands (:data:`~analyzer.game.games.PUNTO_BANCO_HANDS`)."""
        if self.game is not None:
            return self.game
        return replace(PUNTO_BANCO_HANDS, decision=self.punto_banco_decision)

    @property
    def decided(self) -> frozenset[str]:
        """The ids of the bets a decision is solved for and raises: a punto banco
        ``[decision]``'s ``bets``; in a game with one, the bets that read ``action`` (the
        wager the decision is taken on: Lucky Draw's Enter bet), or every bet where none
        does. A game's other bets ride on the rounds as the first of these plays them, at
        one stake (:func:`~analyzer.analysis.decisions.best_play`)."""
        decision = self.decision
        if decision is None:
            return frozenset()
        if decision.bets is None:
            reading = frozenset(bet.id for bet in self.bets if "action" in bet.fields)
            return reading or frozenset(bet.id for bet in self.bets)
        return frozenset(decision.bets)

    @property
    def game_name(self) -> str:
        """The name of the game the bets are on (punto banco's drawing rules' name)."""
        return self.rules.name if self.game is None else self.game.name

    def require_punto_banco(self, what: str) -> None:
        """Refuse, in one line, ``what`` (a command or an engine that deals Player and
        Banker hands) for a paytable of another game, naming the commands that take it
        (:data:`EVERY_GAME_COMMANDS`)."""
        if self.game is not None:
            *most, last = EVERY_GAME_COMMANDS
            raise AnalyzerError(
                f"{self.source}: {what} works on Player and Banker hands only so far, not "
                f"on the hands of {self.game.name} ({', '.join(most)} and {last} take this "
                "game)"
            )

    def require_played_as_dealt(self, what: str) -> None:
        """Refuse, in one line, ``what`` (a command or an engine that plays every bet as
        dealt) for a punto banco paytable whose ``[decision]`` lets the player raise
        (:data:`DECISION_COMMANDS` take it)."""
        if self.punto_banco_decision is not None:
            *most, last = DECISION_COMMANDS
            raise AnalyzerError(
                f"{self.source}: {what} plays every bet as dealt; the bets of its [decision] "
                f"are played by the player's choice ({', '.join(most)} and {last} take it)"
            )

    def with_meter(self, meter: Fraction) -> Paytable:
        """The paytable with the meter of every progressive jackpot at ``meter`` stakes."""
        if not any(bet.jackpot for bet in self.bets):
            raise AnalyzerError(f"{self.source} has no progressive jackpot")
        if not 0 <= meter <= MAX_METER:
            raise AnalyzerError(f"a jackpot meter is from 0 to {MAX_METER:,} stakes")
        bets = tuple(bet.with_meter(meter) if bet.jackpot else bet for bet in self.bets)
        return replace(self, bets=bets)

    def with_unknowns(self, point: Mapping[str, Fraction]) -> Paytable:
        """The paytable with every unknown given a value within its range."""
        extra = sorted(set(point) - {name for name, _, _ in self.unknowns})
        if extra:
            known = ", ".join(name for name, _, _ in self.unknowns)
            raise AnalyzerError(f"{extra[0]!r} is not an unknown of the paytable ({known})")
        for name, low, high in self.unknowns:
            if name not in point:
                raise AnalyzerError(f"the unknown {name!r} has no value")
            if not low <= point[name] <= high:
                raise AnalyzerError(f"{name} = {point[name]} is outside its range {low}..{high}")
        out = replace(self, unknowns=())
        if self.multipliers is not None:
            model = self.multipliers.at(point)
            self._check_probabilities(point, model.probabilities, "of the multipliers")
            bets = tuple(replace(b, multipliers=model) if b.multiplied else b for b in self.bets)
            out = replace(out, multipliers=model, bets=bets)
        decision = self.punto_banco_decision
        if decision is not None and decision.shown:
            from analyzer.paytables.unknowns import Poly

            shown = tuple((k, p.at(point) if isinstance(p, Poly) else p) for k, p in decision.shown)
            self._check_probabilities(point, [p for _, p in shown], "of the decision's shown")
            out = replace(out, punto_banco_decision=replace(decision, shown=shown))
        return out

    @staticmethod
    def _check_probabilities(point: Mapping[str, Fraction], values: list, what: str) -> None:
        for p in values:
            if not 0 <= p <= 1:
                raise AnalyzerError(
                    f"at {_point_text(point)} a probability {what} is {p}, outside [0, 1]"
                )

    @property
    def probabilities(self) -> list:
        """Every probability the unknowns may move: the multipliers', and a decision's
        chances of the cards shown (each exact, or a polynomial in the unknowns)."""
        out = [] if self.multipliers is None else list(self.multipliers.probabilities)
        if self.decision is not None:
            out += [p for _, p in self.decision.shown]
        return out

    def games(self) -> list[Paytable]:
        """The games a player is offered: the paytable itself, or, for a file of
        ``[[alternative]]`` pay tables, each alternative as a paytable of its own (its name,
        its bets)."""
        if not self.alternatives:
            return [self]
        return [
            replace(
                self,
                name=name,
                bets=tuple(bet for bet in self.bets if bet.id in ids),
                alternatives=(),
            )
            for name, ids in self.alternatives
        ]

    @property
    def fingerprint(self) -> dict[str, Any]:
        """Everything a result depends on, as plain JSON-ready data (runs are saved under
        its hash): the shoe size, the modes and every bet's rules and payouts, and the
        drawing rules and strategy where they are not the standard game's (so a standard
        paytable keeps the fingerprint it always had)."""
        played = {}
        if not self.rules.is_standard:
            played["drawing_rules"] = self.rules.table
        if self.strategy.choices:
            played["strategy"] = self.strategy.fingerprint
        if self.fee:
            played["fee"] = str(self.fee)
        if self.multipliers is not None:
            played["multipliers"] = self.multipliers.fingerprint
        if self.unknowns:
            played["unknowns"] = {name: f"{low}..{high}" for name, low, high in self.unknowns}
        if self.game is not None:
            played["game"] = self.game.fingerprint()
        if self.punto_banco_decision is not None:
            played["decision"] = self.punto_banco_decision.fingerprint()
        if self.played is not None:
            played["decisions_played"] = [
                [bet, mode, list(cards), list(values), action]
                for bet, mode, (cards, values), action in self.played.rows
            ]
        return played | {
            "name": self.name,
            "decks": self.decks,
            "modes": list(self.modes),
            "bets": [
                {
                    "id": bet.id,
                    "max_round": bet.max_round,
                    "modes": None if bet.modes is None else list(bet.modes),
                    "rules": [_rule_fingerprint(rule) for rule in bet.rules],
                }
                | ({"multiply": bet.multiply} if bet.multiplied else {})
                | ({"fee": str(bet.fee)} if bet.fee != self.fee else {})
                | (
                    {"jackpot_contribution": str(bet.jackpot.contribution)}
                    if bet.jackpot is not None
                    else {}
                )
                for bet in self.bets
            ],
        }

    @property
    def bet_ids(self) -> tuple[str, ...]:
        """Every bet's id, once each, in the paytable's order."""
        return tuple(dict.fromkeys(bet.id for bet in self.bets))

    @property
    def has_main_bet(self) -> bool:
        """Does it offer a bet on the Player's or the Banker's hand (:data:`MAIN_BETS`), or,
        for another game of the family, a bet on which hand wins (its conditions read
        ``winner``)? Its best bet is then the game's maximum RTP."""
        if self.game is not None:
            return any("winner" in bet.fields for bet in self.bets)
        return any(bet.id in MAIN_BETS for bet in self.bets)

    def bet(self, bet_id: str, mode: str) -> Bet:
        """Bet ``bet_id`` as offered in ``mode``.

        Raises
        ------
        AnalyzerError
            When the bet is not offered in that mode.
        """
        argument(bet_id, str, "bet id")
        argument(mode, str, "mode", " (a mode name)")
        for bet in self.bets:
            if bet.id == bet_id and bet.offered_in(mode):
                return bet
        raise AnalyzerError(f"bet {bet_id!r} is not offered in mode {mode!r}")

    def offered(self, modes: tuple[str, ...], bet_ids: tuple[str, ...] | None = None):
        """(bet, mode) pairs in paytable order, each bet once per mode that offers it."""
        wanted = self.bet_ids if bet_ids is None else bet_ids
        for bet_id in self.bet_ids:
            if bet_id not in wanted:
                continue
            for mode in modes:
                for bet in self.bets:
                    if bet.id == bet_id and bet.offered_in(mode):
                        yield bet, mode

    def check_bet_ids(self, bet_ids: tuple[str, ...]) -> None:
        """Check that every id in ``bet_ids`` is a bet of the paytable.

        Raises
        ------
        AnalyzerError
            Naming the first unknown bet and listing the paytable's bets.
        """
        for bet_id in bet_ids:
            if bet_id not in self.bet_ids:
                raise AnalyzerError(f"unknown bet {bet_id!r} (bets: {', '.join(self.bet_ids)})")

    @property
    def mixture(self) -> tuple[tuple[Fraction, Tableau], ...]:
        """The pure tableaus its hands draw by, and their weights (one, of weight 1, but
        under a mixed strategy); rules whose decisions are not all played are an error."""
        return self.rules.mixture(self.strategy)

    def with_strategy(self, strategy: Strategy) -> Paytable:
        """The paytable with the cells of ``strategy`` played as it says (the others as
        the paytable's ``[strategy]`` says); a cell that is no decision is an error."""
        argument(strategy, Strategy, "strategy", " (see parse_strategy)")
        self.rules.check_strategy(strategy)
        return replace(self, strategy=self.strategy.updated(strategy))

    def check_modes(self, modes: tuple[str, ...]) -> None:
        """Check that every mode in ``modes`` is one of the paytable's.

        Raises
        ------
        AnalyzerError
            Naming the first unknown mode and listing the paytable's modes.
        """
        for mode in modes:
            if mode not in self.modes:
                raise AnalyzerError(f"unknown mode {mode!r} (modes: {', '.join(self.modes)})")


def _point_text(point: Mapping[str, Fraction]) -> str:
    return ", ".join(f"{name} = {value}" for name, value in point.items())


def _rule_fingerprint(rule: Rule) -> list[str]:
    if rule.payout.multiplied:
        return [rule.condition.text, str(rule.payout.net), str(rule.payout.per_multiplier)]
    return [rule.condition.text, str(rule.payout.net)]


def _check_name(text: str, key: str, where: str, limit: int = _MAX_NAME) -> None:
    check_name(text, key, where, limit)


def _texts(data: Mapping[str, Any], key: str, other: str, where: str, limit: int) -> dict[str, str]:
    """``{language: text}`` from ``key`` (English) and the table ``other`` (the rest)."""
    texts = dict(table(data.get(other, {}), where, repr(other)))
    if not all(isinstance(v, str) for v in texts.values()):
        raise AnalyzerError(f"{where}: {other!r} must map languages to text")
    for lang in texts:
        if lang not in LANGUAGES[1:]:
            raise AnalyzerError(
                f"{where}: {other!r} has the unknown language {lang[:20]!r} (languages: "
                f"{', '.join(LANGUAGES[1:])}; English is {key!r})"
            )
    english = optional(data, key, str, where)
    if english is not None:
        texts["en"] = english
    for lang, text in texts.items():
        _check_name(
            text, key if lang == "en" and english is not None else f"{other}.{lang}", where, limit
        )
    return texts


def _bet_from_dict(
    data: Any,
    modes: tuple[str, ...],
    source: str,
    number: int,
    multipliers: Multipliers | None = None,
    fee: Fraction = Fraction(0),
    game: Game | None = None,
) -> Bet:
    table(data, f"{source}: bet #{number}", "a bet")
    vocabulary = None if game is None else game.vocabulary
    bet_id = require(data, "id", str, f"{source}: bet #{number}")
    if not _IDENTIFIER.fullmatch(bet_id):
        raise AnalyzerError(
            f"{source}: bet #{number}: id {bet_id[:40]!r} must be lower-case letters, digits "
            "and _, starting with a letter, at most 64 characters"
        )
    where = f"{source}: bet {bet_id!r}"
    check_keys(
        data,
        {"id", "name", "names", "max_round", "modes", "rule", "multiply", "jackpot", "fee"}
        | {"description", "descriptions", "note", "notes", "aliases"},
        where,
    )
    name = optional(data, "name", str, where, bet_id)
    _check_name(name, "name", where)
    names = _texts(data, "name", "names", where, _MAX_NAME)
    descriptions = _texts(data, "description", "descriptions", where, _MAX_TEXT)
    notes = _texts(data, "note", "notes", where, _MAX_TEXT)
    aliases = _aliases(data, where)
    max_round = data.get("max_round")
    if max_round is not None:
        whole_number(max_round, where, "'max_round'", 1, MAX_ROUND)
    bet_modes = data.get("modes")
    if bet_modes is not None:
        list_of(bet_modes, str, where, "'modes'")
        for mode in bet_modes:
            if mode not in modes:
                raise AnalyzerError(f"{where}: unknown mode {mode!r} (modes: {', '.join(modes)})")
        bet_modes = tuple(bet_modes)
    rules_data = require(data, "rule", list, where)
    if not rules_data:
        raise AnalyzerError(f"{where}: needs at least one rule")
    rules = []
    for i, rule in enumerate(rules_data, 1):
        rule_where = f"{where}: rule {i}"
        table(rule, rule_where, "a rule (with 'when' and 'pays')")
        check_keys(rule, {"when", "pays", "label", "labels"}, rule_where)
        if "pays" not in rule:
            raise AnalyzerError(f"{rule_where}: missing 'pays'")
        try:
            condition = parse_condition(require(rule, "when", str, rule_where), vocabulary)
            payout = parse_payout(rule["pays"])
        except AnalyzerError as exc:
            if str(exc).startswith(rule_where):
                raise
            raise AnalyzerError(f"{rule_where}: {exc}") from None
        labels = _texts(rule, "label", "labels", rule_where, _MAX_TEXT)
        rules.append(Rule(condition, payout, labels))
    multiply = _multiply(data, rules, multipliers, where, game)
    jackpot = _jackpot(data, rules, where)
    if "fee" in data:  # the bet's own fee, in place of the paytable's
        from analyzer.paytables.multipliers import parse_fee

        fee = parse_fee(data["fee"], where)
    if jackpot is not None:
        rules = [
            replace(rule, payout=replace(rule.payout, net=jackpot.meter))
            if rule.payout.jackpot
            else rule
            for rule in rules
        ]
    return Bet(
        bet_id,
        name,
        tuple(rules),
        max_round,
        bet_modes,
        names,
        descriptions,
        notes,
        multiply,
        multipliers if multiply else None,
        fee,
        jackpot,
        aliases,
    )


#: The most other names a bet may have.
_MAX_ALIASES = 50


def _aliases(data: Mapping[str, Any], where: str) -> tuple[str, ...]:
    """A bet's ``aliases``: other names help pages give it, a list of texts."""
    aliases = data.get("aliases", [])
    list_of(aliases, str, where, "'aliases'")
    if len(aliases) > _MAX_ALIASES:
        raise AnalyzerError(f"{where}: 'aliases' names more than {_MAX_ALIASES} names")
    for alias in aliases:
        _check_name(alias, "aliases", where)
    return tuple(aliases)


def _multiply(
    data: Mapping[str, Any],
    rules: list[Rule],
    multipliers: Multipliers | None,
    where: str,
    game: Game | None = None,
) -> str | None:
    """A bet's ``multiply`` (whose cards the multiplier counts), checked against its rules
    and the paytable's ``[multipliers]``: every multiplied payout wins whatever the
    multiplier, and a bet that says ``multiply`` pays by it. On another game of the family
    it names a hand, ``winner`` or ``both`` (every card of the round)."""
    multiplied = [i for i, rule in enumerate(rules, 1) if rule.payout.multiplied]
    kinds = MULTIPLY_KINDS if game is None else (*(h.name for h in game.hands), *GAME_MULTIPLY)
    kind = optional(data, "multiply", str, where)
    if kind is None:
        if multiplied:
            raise AnalyzerError(
                f"{where}: rule {multiplied[0]} pays by the multiplier, but the bet has no "
                f"'multiply' (whose cards count: {', '.join(kinds)})"
            )
        return None
    if kind not in kinds:
        raise AnalyzerError(f"{where}: unknown 'multiply' {kind[:40]!r} (use {', '.join(kinds)})")
    if game is not None and kind in GAME_MULTIPLY and kind in (h.name for h in game.hands):
        raise AnalyzerError(
            f"{where}: 'multiply' {kind!r} is both a hand of {game.name} and a word of "
            f"'multiply' ({', '.join(GAME_MULTIPLY)}): rename the hand"
        )
    if multipliers is None:
        raise AnalyzerError(
            f"{where}: 'multiply' needs the paytable's [multipliers] (how many special cards "
            "or suits are drawn, and their values)"
        )
    if not multiplied:
        raise AnalyzerError(
            f"{where}: 'multiply' is given but no rule pays by the multiplier "
            '(e.g. pays = "multiplier")'
        )
    if game is not None and game.by_values:
        raise AnalyzerError(
            f"{where}: 'multiply' on {game.name}, whose hands draw or decide, is not priced "
            "yet (multiplied bets of games dealt once are)"
        )
    counted = KIND_CARDS[kind] if game is None else game.most_counted(kind)
    smallest = multipliers.smallest(counted)
    for i in multiplied:
        payout = rules[i - 1].payout
        if payout.net + payout.per_multiplier * smallest <= 0:
            raise AnalyzerError(
                f"{where}: rule {i}: {payout.text!r} pays "
                f"{payout.net + payout.per_multiplier * smallest} at the smallest multiplier "
                f"({smallest}): a win must pay more than 0"
            )
    return kind


def paytable_from_dict(data: Mapping[str, Any], source: str = "<paytable>") -> Paytable:
    """Validate a paytable mapping; every problem is one :class:`AnalyzerError` naming it."""
    table(data, source, "a paytable")
    check_untrusted(data, source)
    return paytable_from_parsed(data, source)


def paytable_from_parsed(data: Mapping[str, Any], source: str) -> Paytable:
    """:func:`paytable_from_dict` of a file's data as :func:`~analyzer.files.parse_toml`
    returns it: its nesting and text checked there already (not walked again: some
    2,000 strings of the seed game, a share of every start)."""
    table(data, source, "a paytable")
    check_keys(
        data,
        {"name", "decks", "modes", "bet", "source", "description", "rules", "strategy"}
        | {"fee", "multipliers", "unknowns", "alternative", "game", "decision"},
        source,
    )
    game = _game(data, source)
    for key in ("source", "description"):
        optional_note(data, key, source)
    name = require(data, "name", str, source)
    _check_name(name, "name", source)
    decks = data.get("decks", 8)
    try:
        decks = check_decks(decks, "'decks'")
    except AnalyzerError as exc:
        raise AnalyzerError(f"{source}: {exc}") from None
    modes = list_of(data.get("modes", ["standard"]), str, source, "'modes'")
    if not modes:
        raise AnalyzerError(f"{source}: 'modes' must name at least one mode")
    if len(set(modes)) != len(modes):
        raise AnalyzerError(f"{source}: duplicate mode in 'modes'")
    for mode in modes:
        if not _IDENTIFIER.fullmatch(mode):
            raise AnalyzerError(
                f"{source}: mode {mode[:40]!r} must be lower-case letters, digits and _, "
                "starting with a letter, at most 64 characters"
            )
        if mode in RESERVED_MODES:
            raise AnalyzerError(
                f"{source}: mode {mode!r} is reserved (it means every mode): choose another name"
            )
    modes = tuple(modes)
    bets_data = require(data, "bet", list, source)
    if not bets_data:
        raise AnalyzerError(f"{source}: 'bet' is empty: a paytable needs at least one [[bet]]")
    if {"fee", "multipliers", "unknowns"} & data.keys():
        # (imported here: most paytables have neither, and a start should not pay for it)
        from analyzer.paytables.multipliers import multipliers_from_table, parse_fee
        from analyzer.paytables.unknowns import parse_unknowns
    fee = parse_fee(data["fee"], source) if "fee" in data else Fraction(0)
    unknowns = {}
    if "unknowns" in data:
        decision_data = data.get("decision")
        shown = isinstance(decision_data, Mapping) and "shown" in decision_data
        if "multipliers" not in data and not shown:
            raise AnalyzerError(
                f"{source}: [unknowns] need [multipliers] (or a [decision]'s 'shown') to be "
                "unknowns of"
            )
        unknowns = parse_unknowns(data["unknowns"], f"{source}: [unknowns]")
    multipliers = None
    if "multipliers" in data:
        multipliers = multipliers_from_table(
            data["multipliers"], f"{source}: [multipliers]", tuple(unknowns), "decision" not in data
        )
    if multipliers is not None and multipliers.by_suits and game is None:
        raise AnalyzerError(
            f"{source}: [multipliers]: 'suits' (Lightning suits) is for the other games of "
            "the family so far (game = ...); punto banco's special cards are 'cards'"
        )
    bets = tuple(
        _bet_from_dict(bet, modes, source, i, multipliers, fee, game)
        for i, bet in enumerate(bets_data, 1)
    )
    seen: set[tuple[str, str]] = set()
    for bet in bets:
        for mode in modes:
            if bet.offered_in(mode):
                if (bet.id, mode) in seen:
                    raise AnalyzerError(f"{source}: bet {bet.id!r}: duplicate id in mode {mode!r}")
                seen.add((bet.id, mode))
    rules, strategy = _rules_and_strategy(data, source)
    bounds = tuple((name, low, high) for name, (low, high) in unknowns.items())
    alternatives = _alternatives(data.get("alternative"), bets, source)
    decision = _punto_banco_decision(data.get("decision"), bets, source, tuple(unknowns))
    _check_unknowns_used(unknowns, multipliers, decision, source)
    paytable = Paytable(
        name,
        decks,
        modes,
        bets,
        source,
        rules,
        strategy,
        fee,
        multipliers,
        bounds,
        alternatives=alternatives,
        game=game,
        punto_banco_decision=decision,
    )
    _check_folds(paytable)
    return paytable


def _check_folds(paytable: Paytable) -> None:
    """A fold forfeits each bet of the decision at its own ``pays``: the rules of such a
    bet may not settle a folded round themselves (a rule naming the fold is refused, one
    line)."""
    decision = paytable.decision
    if decision is None:
        return
    for action in decision.actions:
        if not action.folds:
            continue
        for bet in paytable.bets:
            if bet.id not in paytable.decided:
                continue
            for number, rule in enumerate(bet.rules, 1):
                if f"'{action.name}'" in rule.condition.shown or (
                    f'"{action.name}"' in rule.condition.shown
                ):
                    raise AnalyzerError(
                        f"{paytable.source}: bet {bet.id!r}: rule {number} settles the fold "
                        f"{action.name!r}, which the rules do not allow: a folded bet loses "
                        f"the fold's pays ({action.pays!r}) without a rule"
                    )


def _punto_banco_decision(
    value: object, bets: tuple[Bet, ...], source: str, unknowns: tuple[str, ...]
) -> Decision | None:
    """``[decision]`` of a punto banco paytable: each bet it names exists, is paid fixed
    amounts (no multiplier, no jackpot) and reads only what the walk after the first
    four cards tells apart (:data:`~analyzer.game.games.DECIDED_FIELDS`); the chances of
    ``shown`` may be expressions in the paytable's unknowns."""
    if value is None:
        return None

    def chances(shown: object, where: str) -> dict:
        from analyzer.paytables.multipliers import distribution_from_table

        read = distribution_from_table(shown, where, "shown", "number of cards", unknowns)
        return {str(int(k)): p for k, p in read.items()}

    decision = decision_from_table(value, f"{source}: [decision]", chances)
    by_id = {bet.id: bet for bet in bets}
    for bet_id in decision.bets:
        where = f"{source}: [decision]: bet {bet_id[:64]!r}"
        bet = by_id.get(bet_id)
        if bet is None:
            raise AnalyzerError(f"{where}: no such bet in the paytable")
        if bet.multiplied or bet.jackpot is not None:
            raise AnalyzerError(
                f"{where}: a bet the player decides on is paid fixed amounts (no multiplier, "
                "no jackpot)"
            )
        other = sorted(bet.fields - set(DECIDED_FIELDS))
        if other:
            raise AnalyzerError(
                f"{where}: reads {', '.join(other)}; a bet the player decides on may read "
                f"{', '.join(DECIDED_FIELDS)} only so far"
            )
    return decision


def _check_unknowns_used(
    unknowns: Mapping[str, Any],
    multipliers: Multipliers | None,
    decision: Decision | None,
    source: str,
) -> None:
    """Every unknown is in some probability: the multipliers' or a decision's ``shown``."""
    if not unknowns:
        return
    from analyzer.paytables.unknowns import Poly

    chances = [] if decision is None else [p for _, p in decision.shown]
    probabilities = [*([] if multipliers is None else multipliers.probabilities), *chances]
    used = frozenset().union(*(p.used for p in probabilities if isinstance(p, Poly)))
    for name in unknowns:
        if name not in used:
            raise AnalyzerError(
                f"{source}: [unknowns]: the unknown {name!r} is in no probability (of the "
                "[multipliers], or of the [decision]'s 'shown')"
            )


#: What only punto banco has: a paytable of another game refuses these keys.
_PUNTO_BANCO_KEYS = ("rules", "strategy")


def _game(data: Mapping[str, Any], source: str) -> Game | None:
    """``game``: a shipped game's name or a ``[game]`` table (None: punto banco)."""
    value = data.get("game")
    if value is None:
        return None
    try:
        game = _named_or_table(value, "game", named_game, game_from_table)
    except AnalyzerError as exc:
        raise AnalyzerError(f"{source}: {exc}") from None
    if "decision" in data:
        raise AnalyzerError(
            f"{source}: a decision of {game.name} is the game's: give it in the game's "
            "[game.decision]"
        )
    for key in _PUNTO_BANCO_KEYS:
        if key in data:
            raise AnalyzerError(
                f"{source}: '{key}' is punto banco's (drawing rules and their strategy); "
                f"{game.name} has none"
            )
    return game


def _alternatives(
    value: object, bets: tuple[Bet, ...], source: str
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``[[alternative]]``: the alternative pay tables of a research file, each a game's
    ``name`` and its ``bets`` (ids); at least two, and every bet in exactly one."""
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) < 2:
        raise AnalyzerError(f"{source}: 'alternative' must be at least two [[alternative]] tables")
    ids = dict.fromkeys(bet.id for bet in bets)
    owner: dict[str, str] = {}
    out = []
    for i, item in enumerate(value, 1):
        where = f"{source}: alternative {i}"
        table(item, where, "it")
        check_keys(item, {"name", "bets"}, where)
        name = require(item, "name", str, where)
        _check_name(name, "name", where)
        chosen = list_of(require(item, "bets", list, where), str, where, "'bets'")
        if not chosen:
            raise AnalyzerError(f"{where}: 'bets' is empty")
        for bet_id in chosen:
            if bet_id not in ids:
                raise AnalyzerError(f"{where}: no bet {bet_id[:64]!r} in the paytable")
            if bet_id in owner:
                raise AnalyzerError(
                    f"{where}: bet {bet_id!r} is already in alternative {owner[bet_id]!r}"
                )
            owner[bet_id] = name
        out.append((name, tuple(dict.fromkeys(chosen))))
    missing = [bet_id for bet_id in ids if bet_id not in owner]
    if missing:
        raise AnalyzerError(f"{source}: bet {missing[0]!r} is in no [[alternative]]")
    if len({name for name, _ in out}) != len(out):
        raise AnalyzerError(f"{source}: two [[alternative]] tables have the same name")
    return tuple(out)


def _named_or_table(value: object, key: str, named: Callable, from_table: Callable) -> Any:
    """A paytable's ``key`` that names a shipped file (``named``) or is a table of its own
    (``from_table``): the drawing rules, the game."""
    if isinstance(value, str):
        return named(value)
    if isinstance(value, Mapping):
        return from_table(value, f"[{key}]")
    what = {"rules": "a rule set's", "game": "a game's"}[key]
    raise AnalyzerError(f"'{key}' must be {what} name or a [{key}] table")


def _rules_and_strategy(data: Mapping[str, Any], source: str) -> tuple[DrawingRules, Strategy]:
    """``rules`` (a rule set's name, or a ``[rules]`` table) and ``[strategy]``."""
    value = data.get("rules", "standard")
    try:
        rules = _named_or_table(value, "rules", named_rules, rules_from_table)
        strategy = NO_STRATEGY
        if "strategy" in data:
            strategy = parse_strategy(data["strategy"], "[strategy]")
            rules.check_strategy(strategy)
    except AnalyzerError as exc:
        raise AnalyzerError(f"{source}: {exc}") from None
    return rules, strategy


def restricted(paytable: Paytable, columns: Sequence[tuple[str, str]]) -> Paytable:
    """The paytable with only the bets and modes of these (bet id, mode) columns."""
    modes = tuple(dict.fromkeys(mode for _, mode in columns))
    paytable.check_modes(modes)
    chosen = [paytable.bet(bet_id, mode) for bet_id, mode in columns]
    bets = tuple(bet for bet in paytable.bets if any(bet is c for c in chosen))
    return replace(paytable, modes=modes, bets=bets)


def resolve_modes(paytable: Paytable, mode: str | None) -> tuple[str, ...]:
    """The modes that ``mode`` names: one mode, or every mode for None, "both" or "all"."""
    if mode is not None and not isinstance(mode, str):
        raise AnalyzerError(f"mode must be a mode name, got {mode!r}")
    if mode is None or mode in RESERVED_MODES:
        return paytable.modes
    paytable.check_modes((mode,))
    return (mode,)


def with_values(
    paytable: Paytable,
    *,
    unknowns: Mapping[str, Fraction] | None = None,
    jackpot: Fraction | None = None,
    prefix: str = "--",
) -> Paytable:
    """``paytable`` with its ``unknowns`` given values and its progressive jackpots' meter
    at ``jackpot`` stakes (None leaves each as the paytable has it). Errors name each as
    ``prefix`` + its name (``--jackpot: ...`` on the command line)."""
    if unknowns is not None:
        if not paytable.unknowns:
            raise AnalyzerError(f"{prefix}unknowns: {paytable.source} has no unknowns")
        try:
            paytable = paytable.with_unknowns(unknowns)
        except AnalyzerError as exc:
            raise AnalyzerError(f"{prefix}unknowns: {exc}") from None
    if jackpot is not None:
        try:
            paytable = paytable.with_meter(jackpot)
        except AnalyzerError as exc:
            raise AnalyzerError(f"{prefix}jackpot: {exc}") from None
    return paytable
