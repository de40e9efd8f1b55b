"""``verify``: published claims (a claims file) against exact values.

Claims are planned before anything is computed: each claim's shoe (the paytable's decks,
the claims file's and the claim's own ``decks``/``remove``, the command line's on top),
and per paytable and shoe the bets and events the claims ask about. Then each paytable is
analysed once per shoe, with every event a claim names settled as one more bet (it pays
where the event holds), so a file of a hundred claims costs about one analysis, not a
hundred. Each claim is then read off those exact results and printed the way its source
printed it.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import perm
from typing import TYPE_CHECKING, Protocol

from analyzer.analysis.bets import BetResult, Line, net_distribution
from analyzer.analysis.exact import Analysis, NothingComputable, analyze
from analyzer.errors import AnalyzerError
from analyzer.game.cards import Card
from analyzer.game.identities import IDENTITY_PATTERNS
from analyzer.game.shoe import INFINITE, ROUND_CARDS, Decks, Shoe, check_decks
from analyzer.paytables.claims import (
    BET_FIGURES,
    EXACT_DECISIONS,
    PAYTABLE_FACTS,
    Claim,
    ResolvedSpec,
    Unordered,
    load_claims,  # noqa: F401 (read from here by the commands and the API)
    published_max_rtp,  # noqa: F401 (where the report's claim was read before)
    unordered,
)
from analyzer.paytables.conditions import Condition, parse_condition
from analyzer.paytables.library import (
    as_paytable,
    load_paytable,
)
from analyzer.paytables.model import Bet, Payout, Paytable, Rule, parse_payout
from analyzer.paytables.printed import (
    Exact,
    SquareRoot,
    compare_float,
    compare_printed,
    float_printed,
    read_printed,
    shown_fraction,
)
from analyzer.paytables.unknowns import Poly
from analyzer.schema import argument, sequence_of
from analyzer.words import counted

if TYPE_CHECKING:  # (pandas is imported where a frame is made: a report needs none)
    import pandas as pd

#: The columns of verify's table, in order (JSON: one object per claim with these keys).
COLUMNS = (
    "claim",
    "result",
    "last_digit",
    "paytable",
    "shoe",
    "quantity",
    "bet",
    "mode",
    "claimed",
    "computed",
    "exact",
    "method",
    "note",
    "source",
)


class NotComputable(AnalyzerError):
    """A claim this shoe cannot give exactly (the suits of some cards are unknown): it is
    reported as not checked, and the other claims are still checked."""


#: The id every event bet starts with (no paytable's id can: ids begin with a letter).
_EVENT_ID = "#event"
#: What an event bet pays where its event holds: a placeholder, read only as counts.
_HOLDS = Payout("1:1", Fraction(1))
#: How many standard errors a simulated figure may be from a printed one and pass.
SIMULATION_TOLERANCE = 3
#: What verify answers on a paytable with unknowns and no values for them: the figures
#: fit solves (by the set of unknowns each allows) and the largest payout.
_IN_UNKNOWNS = (*BET_FIGURES, "max_rtp", "max_payout")


@dataclass(frozen=True)
class Simulated:
    """A figure a simulation estimates: its value and standard error, and what was run."""

    value: float
    standard_error: float
    note: str


class Simulator(Protocol):
    """Checks and runs the claims only a simulation can check (published counting
    studies): supplied by the runs layer, which deals shoes."""

    def check(self, claim: Claim, paytable: Paytable, decks: int) -> None: ...

    def run(self, claim: Claim, paytable: Paytable, decks: int) -> Simulated: ...


@dataclass(frozen=True)
class _ShoeOf:
    """The shoe of a claim: its base (decks, or a shoe given for every claim) less
    cards, and the words naming it."""

    decks: Decks
    removed: tuple[Card, ...]
    given: Shoe | None = None

    @property
    def key(self) -> tuple:
        return (self.decks, id(self.given), tuple(sorted(map(str, self.removed))))

    def less(self, cards: Iterable[Card]) -> _ShoeOf:
        return replace(self, removed=(*self.removed, *cards))

    def shoe(self) -> Shoe:
        base = self.given if self.given is not None else Shoe.standard(self.decks)
        return base.remove(list(self.removed)) if self.removed else base

    def describe(self) -> str:
        base = (
            self.given.describe()
            if self.given is not None
            else Shoe.standard(self.decks).describe()
            if self.decks == INFINITE
            else counted(self.decks, "deck")
        )
        return base + (" less " + " ".join(map(str, self.removed)) if self.removed else "")


def _swapped(text: str, swap: Mapping[str, str]) -> str:
    """A condition with the cards of ``swap`` exchanged (``player_card1`` for
    ``player_card2`` and back, say)."""

    def card(match: re.Match) -> str:
        return swap.get(match[1], match[1]) + "_"

    return re.sub(r"\b((?:player|banker)_card[123])_", card, text)


def _unordered_of(claim: Claim, paytable: Paytable) -> tuple[Unordered, list[Condition]]:
    """The card sets a claim counts unordered (``over``), and the conditions that must
    not tell those cards apart: the event and its given condition, or every rule of the
    bet up to the claimed line (the line settles what no rule before it does)."""
    assert claim.over is not None
    if claim.event is not None:
        conditions = [c for c in (claim.event, claim.given) if c is not None]
    else:
        modes = paytable.modes if claim.mode is None else (claim.mode,)
        number = _rule_of(claim, paytable)
        conditions = [
            rule.condition
            for bet, _ in paytable.offered(modes, (claim.bet,))
            for rule in bet.rules[:number]
        ]
    fields = frozenset().union(*(c.fields for c in conditions))
    return unordered(claim.over, fields, "the claim"), conditions


def _symmetry_checks(claim: Claim, paytable: Paytable) -> list[tuple[Condition, Condition]]:
    """For a claim counted unordered: each condition with, as its given, itself with two
    of the cards exchanged, for each exchange that makes up every order of them. A
    condition holds for unordered sets only if it holds wherever such a swap of it does:
    the ways of (it and its swap) are then the ways of it alone."""
    sets, conditions = _unordered_of(claim, paytable)
    return [
        (condition, parse_condition(_swapped(condition.text, swap)))
        for condition in dict.fromkeys(conditions)
        for swap in sets.swaps
    ]


@dataclass(frozen=True)
class _Event:
    """An event (and a condition it is given), settled as one more bet: a rule for the
    given condition first, then one for the event, both paying. The ways a rule's
    condition holds (earlier rules or not) and the ways it settles give both counts with
    no condition written anew: the event holds with the given condition where it holds at
    all but where it settles (the given condition settled those first)."""

    event: Condition
    given: Condition | None

    def bet(self, number: int, mode: str) -> Bet:
        rules = [] if self.given is None else [Rule(self.given, _HOLDS)]
        rules.append(Rule(self.event, _HOLDS))
        return Bet(f"{_EVENT_ID}{number}", "event", tuple(rules), modes=(mode,))

    def ways(self, result: BetResult) -> tuple[int, int]:
        """(ways the event holds where the given condition does, ways that condition
        holds), from the event bet's lines."""
        event = result.lines[-2]
        if self.given is None:
            return event.ways, result.lines[0].matched + result.lines[-1].ways
        return event.matched - event.ways, result.lines[0].matched


def _event_key(event: Condition, given: Condition | None) -> tuple[str, str | None]:
    """One event bet per event and given condition, however many claims ask about them."""
    return event.text, None if given is None else given.text


@dataclass
class _Request:
    """What the claims ask of one paytable on one shoe."""

    paytable: Paytable
    shoe: _ShoeOf
    every_bet: bool = False
    bets: set[str] = field(default_factory=set)
    events: dict[tuple[str, str | None], _Event] = field(default_factory=dict)
    analysis: Analysis | None = None

    def add_event(self, event: Condition, given: Condition | None) -> None:
        self.events.setdefault(_event_key(event, given), _Event(event, given))

    def run(self) -> Analysis:
        if self.analysis is None:
            mode = self.paytable.modes[0]
            events = tuple(e.bet(n, mode) for n, e in enumerate(self.events.values()))
            paytable = replace(self.paytable, bets=self.paytable.bets + events)
            ids = None
            if not self.every_bet:
                ids = [b for b in self.paytable.bet_ids if b in self.bets]
                ids += [bet.id for bet in events]
            try:
                self.analysis = analyze(paytable=paytable, shoe=self.shoe.shoe(), bets=ids)
            except NothingComputable as exc:  # each claim on it: not checked, the rest are
                raise NotComputable(str(exc)) from None
        return self.analysis

    def event_ways(self, event: Condition, given: Condition | None) -> tuple[int, int, int, int]:
        """The ways the event holds (where ``given`` does), the ways ``given`` holds, and
        the sequences (times the scale) they are out of, and the scale."""
        key = _event_key(event, given)
        number = list(self.events).index(key)
        analysis = self.run()
        for bet, _, why in analysis.unavailable:
            if bet == f"{_EVENT_ID}{number}":
                raise NotComputable(f"the event cannot be counted exactly here: {why}")
        result = analysis.result(f"{_EVENT_ID}{number}")
        return (*self.events[key].ways(result), result.lines[0].over, result.lines[0].scale)


@dataclass
class _Verdict:
    exact: Exact | None = None  # the exact value (None: not a printed figure)
    computed: str = ""
    passed: bool | None = False  # None: not checked
    last_digit: bool = False
    mode: str | None = None
    note: str = ""
    error: Fraction = Fraction(0)  # a bound on |exact - truth| when only estimated
    method: str = "exact"  # or numeric, normal (a session), simulated (a study), fit
    #: What the computed figure is shown with (the best bet of a max_rtp claim).
    after: str = ""
    #: The exact column's text where it is not the exact value's (a range's two ends).
    exact_text: str | None = None


class _Verifier:
    def __init__(
        self,
        decks: int | None,
        remove: tuple[Card, ...],
        shoe: Shoe | None,
        simulator: Simulator | None,
        paytable: Paytable | None = None,
    ) -> None:
        self.decks, self.remove, self.given_shoe = decks, remove, shoe
        self.simulator = simulator
        self.given_paytable = paytable
        self.loaded: dict[str, Paytable] = {}
        # One analysis per paytable and shoe, however the paytable's path is spelt (p.toml,
        # ./p.toml, an absolute path, a copy): keyed by what it says, not by its name.
        self.requests: dict[tuple, _Request] = {}
        # A paytable with unknowns, analysed in them, once per shoe.
        self.symbolic: dict[tuple, Analysis] = {}

    def paytable(self, claim: Claim) -> Paytable:
        """The claim's paytable, its decision cells played as the claim says."""
        try:
            if self.given_paytable is not None:  # every claim of this paytable instead
                paytable = self.given_paytable
            else:
                if claim.paytable not in self.loaded:
                    self.loaded[claim.paytable] = load_paytable(claim.paytable)
                paytable = self.loaded[claim.paytable]
            if claim.strategy is not None:
                paytable = paytable.with_strategy(claim.strategy)
        except AnalyzerError as exc:
            raise AnalyzerError(f"claim {claim.number}: {exc}") from None
        return paytable

    def shoe_of(self, claim: Claim, paytable: Paytable) -> _ShoeOf:
        decks = next(d for d in (self.decks, claim.decks, paytable.decks) if d is not None)
        return _ShoeOf(decks, (*claim.remove, *self.remove), self.given_shoe)

    def request(self, paytable: Paytable, shoe: _ShoeOf) -> _Request:
        key = (json.dumps(paytable.fingerprint, sort_keys=True), shoe.key)
        if key not in self.requests:
            self.requests[key] = _Request(paytable, shoe)
        return self.requests[key]

    def in_unknowns(self, paytable: Paytable, shoe: _ShoeOf) -> Analysis:
        """The exact analysis of a paytable with unknowns, in them (its multiplied bets'
        figures polynomials), on one shoe."""
        key = (json.dumps(paytable.fingerprint, sort_keys=True), shoe.key)
        if key not in self.symbolic:
            try:
                self.symbolic[key] = analyze(paytable=paytable, shoe=shoe.shoe(), symbolic=True)
            except NothingComputable as exc:
                raise NotComputable(str(exc)) from None
        return self.symbolic[key]

    def shown_shoe(self, claim: Claim, paytable: Paytable) -> str:
        """The shoe of a claim in words: across deck counts, each of them."""
        if not claim.decks_over or self.decks is not None or self.given_shoe is not None:
            return self.shoe_of(claim, paytable).describe()
        shoes = [self.shoe_of(sub, paytable) for sub in _each_shoe(claim)]
        counts = ", ".join(str(shoe.decks) for shoe in shoes)
        removed = shoes[0].removed
        return f"{counts} decks" + (" less " + " ".join(map(str, removed)) if removed else "")

    # -- Planning: what each claim needs, checked before any work ------------------------

    def plan(self, claim: Claim) -> None:
        if claim.decks_over:  # the figure on each shoe, then taken across them
            for sub in _each_shoe(claim):
                self.plan(sub)
            return
        paytable = self.paytable(claim)
        shoe = self.shoe_of(claim, paytable)
        bets = _claimed_bets(claim)
        paytable.check_bet_ids(bets)
        if claim.mode is not None:
            paytable.check_modes((claim.mode,))
        if claim.quantity in PAYTABLE_FACTS:
            return  # facts of the paytable itself: no shoe enters
        if paytable.unknowns and claim.quantity in _IN_UNKNOWNS:
            shoe.shoe()  # an impossible shoe is an error before any work
            return  # analysed in its unknowns when checked (no analysis at values)
        if claim.quantity == "counting":
            paytable.require_punto_banco("a counting claim")
            if self.simulator is None:
                raise AnalyzerError(
                    "counting claims are checked by dealing shoes: pass a simulator "
                    "(analyzer.runs.studies.CountingStudies)"
                )
            if shoe.removed or shoe.given is not None:
                raise AnalyzerError(
                    "a counting study deals full shoes of its decks: it takes no cards "
                    "removed ('remove', --remove) and no --shoe"
                )
            self.simulator.check(claim, paytable, shoe.decks)
            return
        shoes = [shoe]
        if claim.effect_of:
            shoes.append(shoe.less(claim.effect_of))
        for each in shoes:
            each.shoe()  # an impossible shoe (a card not left) is an error before any work
            request = self.request(paytable, each)
            request.bets |= set(bets)
            if claim.quantity == "max_rtp":
                request.every_bet = True
            if claim.event is not None:
                request.add_event(claim.event, claim.given)
            if claim.over is not None:
                for condition, swapped in _symmetry_checks(claim, paytable):
                    request.add_event(condition, None)
                    request.add_event(condition, swapped)
        if claim.rule is not None or claim.label is not None:
            _rule_of(claim, paytable)  # a rule out of range is an error before any work

    # -- Checking: each claim read off the exact results -------------------------------

    def check(self, claim: Claim) -> _Verdict:
        if claim.decks_over:
            return self._across(claim)
        paytable = self.paytable(claim)
        quantity = claim.quantity
        if quantity in PAYTABLE_FACTS:
            return _paytable_fact(paytable, claim)
        shoe = self.shoe_of(claim, paytable)
        if quantity == "counting":
            return self._counting(claim, paytable, shoe)
        if paytable.unknowns and quantity != "max_payout":
            return self._in_unknowns(claim, paytable, shoe)
        return _compared(self.value(claim), claim)

    def value(self, claim: Claim) -> _Verdict:
        """A claim's exact figure on its one shoe (with its error, where it is only
        bounded), not yet compared with the printed one."""
        paytable = self.paytable(claim)
        shoe = self.shoe_of(claim, paytable)
        quantity = claim.quantity
        if quantity == "max_payout":
            return self._max_payout(claim, paytable, shoe)
        request = self.request(paytable, shoe)
        verdict = _Verdict()
        if quantity == "max_rtp":
            analysis = request.run()
            # The game's bets only: the events claims ask about are settled beside them.
            for bet, mode, why in analysis.unavailable:
                if not bet.startswith(_EVENT_ID):
                    raise NotComputable(
                        f"the maximum RTP needs every bet, and {bet!r} ({mode}) cannot be "
                        f"computed exactly here: {why}"
                    )
            best = max(
                (r for r in analysis.results if not r.bet.id.startswith(_EVENT_ID)),
                key=lambda r: r.rtp,
            )
            verdict.exact = best.rtp
            verdict.after = f" ({best.bet.id}, {best.mode})"  # the best bet, beside its figure
        elif claim.event is not None:
            verdict.exact, verdict.note = self._event_value(claim, request)
        elif quantity == "eor":
            after = self.request(paytable, shoe.less(claim.effect_of))
            values = {
                mode: later.expected_value - result.expected_value
                for (mode, result), later in zip(
                    _results(request.run(), claim).items(),
                    _results(after.run(), claim).values(),
                    strict=True,
                )
            }
            verdict.exact, verdict.mode = _one_value(values, claim)
        elif quantity == "session":
            return self._session(claim, request)
        elif quantity == "resolved":
            return self._resolved(claim, request)
        else:
            results = _results(request.run(), claim)
            values = {mode: _bet_figure(r, claim, paytable) for mode, r in results.items()}
            verdict.exact, verdict.mode = _one_value(values, claim)
            if quantity == "count":
                line = next(iter(results.values())).lines[0]
                verdict.exact, verdict.note = self._count(
                    claim, request, int(verdict.exact), line.over, line.scale
                )
        if quantity == "std_dev":
            verdict.exact = SquareRoot(Fraction(verdict.exact))
        return verdict

    def _across(self, claim: Claim) -> _Verdict:
        """A figure over several deck counts: the largest, the smallest, or both."""
        paytable = self.paytable(claim)
        if paytable.unknowns and claim.quantity != "max_payout":
            raise NotComputable(
                f"{_unknowns_named(paytable)}: a figure across deck counts is compared at "
                "values of them: give them with --unknowns"
            )
        subs = _each_shoe(claim)
        found = [(self.shoe_of(sub, paytable), self.value(sub)) for sub in subs]
        found.sort(key=lambda pair: _order(pair[1].exact))
        (low_shoe, low), (high_shoe, high) = found[0], found[-1]
        error = max(verdict.error for _, verdict in found)
        methods = {verdict.method for _, verdict in found} - {"exact"}
        modes = {verdict.mode for _, verdict in found}
        mode = modes.pop() if len(modes) == 1 else claim.mode
        method = methods.pop() if methods else "exact"
        notes = "; ".join(dict.fromkeys(verdict.note for _, verdict in found if verdict.note))
        shown = {shoe.describe() for shoe, _ in found}
        if len(shown) == 1:  # --decks or --shoe put every one on the same shoe
            where = f"every deck count on {shown.pop()}"
        elif claim.across == "max":
            where = f"the largest at {high_shoe.describe()}"
        elif claim.across == "min":
            where = f"the smallest at {low_shoe.describe()}"
        else:
            where = f"the smallest at {low_shoe.describe()}, the largest at {high_shoe.describe()}"
        note = "; ".join(filter(None, [where, notes]))
        if claim.across != "range":
            chosen = high if claim.across == "max" else low
            verdict = _Verdict(exact=chosen.exact, mode=mode, note=note, error=error, method=method)
            return _compared(verdict, claim)
        ends = []
        for end, printed in zip((low, high), claim.value, strict=True):
            ends.append(
                _compared(replace(end, error=error, after=""), replace(claim, value=printed))
            )
        return _Verdict(
            exact=None,
            computed=f"{ends[0].computed} to {ends[1].computed}",
            passed=all(end.passed for end in ends),
            last_digit=not all(end.passed for end in ends)
            and all(end.passed or end.last_digit for end in ends),
            mode=mode,
            note=note,
            error=error,
            method=method,
            exact_text=f"{_exact_text(ends[0])} to {_exact_text(ends[1])}",
        )

    def _in_unknowns(self, claim: Claim, paytable: Paytable, shoe: _ShoeOf) -> _Verdict:
        """A claim on a paytable whose chances have unknowns, none given: a bet's figure or
        the maximum RTP is answered by the set of unknowns it allows, as fit solves it
        (exact where the figure does not move with them); other claims are left
        unchecked."""
        from analyzer.analysis.fit import (
            FIT_FIGURES,
            box_of,
            claim_constraints,
            model_constraints,
            set_text,
            solve_any,
        )

        named = _unknowns_named(paytable)
        if claim.quantity not in FIT_FIGURES:
            raise NotComputable(
                f"{named}: verify answers a bet's figure or max_rtp with the set of them it "
                f"allows; a {claim.quantity} claim needs their values (--unknowns)"
            )
        if claim.printed == "float":
            raise NotComputable(
                f"{named}: the set they allow is solved for figures printed in decimal; a "
                'figure printed = "float" needs their values (--unknowns)'
            )
        analysis = self.in_unknowns(paytable, shoe)
        (fitted,) = claim_constraints(paytable, [claim], analysis_of=lambda _: analysis)
        if (
            fitted.alternatives is None
            and claim.quantity == "max_rtp"
            and not all(_is_constant(r.rtp) for r in analysis.results)
        ):
            # No bet's RTP can print so, at any values, with none above it.
            return _Verdict(
                passed=False,
                computed="none",
                mode=claim.mode,
                method="fit",
                note=f"no value of the unknowns in their ranges ({_ranges(paytable)}) prints it",
            )
        if fitted.alternatives is None:
            # The unknowns do not move the figure: its exact value, compared as printed.
            verdict = _Verdict(note="the unknowns do not move this figure")
            if claim.quantity == "max_rtp":
                best = max(analysis.results, key=lambda r: _constant(r.rtp))
                verdict.exact = _constant(best.rtp)
                verdict.after = f" ({best.bet.id}, {best.mode})"
            else:
                results = _results(analysis, claim)
                values = {
                    mode: _constant(_bet_figure(r, claim, paytable)) for mode, r in results.items()
                }
                verdict.exact, verdict.mode = _one_value(values, claim)
                if claim.quantity == "std_dev":
                    verdict.exact = SquareRoot(verdict.exact)
            return _compared(verdict, claim)
        box = box_of(paytable)
        result = solve_any(model_constraints(paytable), fitted.alternatives, box)
        verdict = _Verdict(mode=claim.mode, method="fit", computed=set_text(result, box))
        if result.empty:
            verdict.passed = False
            verdict.note = (
                f"no value of the unknowns in their ranges ({_ranges(paytable)}) prints it"
            )
        elif result.witness is not None:
            verdict.passed = True
            point = ", ".join(f"{name} = {value}" for name, value in result.witness.items())
            verdict.note = (
                f"the unknowns it allows, as fit solves them; at {point} it prints as published "
                "(checked exactly)"
            )
        else:
            raise NotComputable(
                f"{named}: the set they allow was bounded ({verdict.computed}) but no point of "
                "it could be shown to hold, nor the set to be empty"
            )
        if result.digits is not None:
            verdict.note += f"; its ends reached {result.digits} significant digits"
        return verdict

    def _max_payout(self, claim: Claim, paytable: Paytable, shoe: _ShoeOf) -> _Verdict:
        """The largest win per unit staked a round of the shoe can pay the bet."""
        if paytable.unknowns:
            analysis = self.in_unknowns(paytable, shoe)
        else:
            analysis = self.request(paytable, shoe).run()
        results = _results(analysis, claim)
        found = {mode: largest_payout(result) for mode, result in results.items()}
        exact, mode = _one_value({m: value for m, (value, _) in found.items()}, claim)
        notes = dict.fromkeys(note for _, note in found.values() if note)
        return _Verdict(exact=exact, mode=mode, note="; ".join(notes))

    def _event_value(self, claim: Claim, request: _Request) -> tuple[Exact, str]:
        holds, given, over, scale = request.event_ways(claim.event, claim.given)
        if claim.quantity == "probability_change":
            after = self.request(request.paytable, request.shoe.less(claim.effect_of))
            later_holds, later_given, _, _ = after.event_ways(claim.event, claim.given)
            _given_possible(claim, later_given)
            _given_possible(claim, given)
            return Fraction(later_holds, later_given) - Fraction(holds, given), ""
        if claim.quantity == "count":
            return self._count(claim, request, holds, over, scale)
        _given_possible(claim, given)
        return Fraction(holds, given), ""

    def _count(
        self, claim: Claim, request: _Request, ways: int, over: int, scale: int
    ) -> tuple[Fraction, str]:
        """A count of ordered six-card rounds, or of the unordered card sets ``over``
        names: a condition on k of the first cards holds for (its ordered deals of them)
        x (the ways to deal the rest of the six) rounds, and an unordered set of them is
        that many orders of it. ``ways`` are out of ``over`` sequences (times ``scale``),
        the claim's own: on a shoe dealt with replacement, its event's or bet's lowest
        terms, whatever else the claims file asks of the same shoe."""
        # Under a mixed strategy the ways are weighted: their expected number of rounds.
        expected = Fraction(ways, scale)
        if claim.over is None:
            return expected, f"of {over // scale:,} rounds"
        if request.shoe.shoe().replacement:
            raise NotComputable(
                f'over = "{claim.over}" counts unordered sets of cards a shoe deals without '
                "replacement: an infinite deck has none"
            )
        sets, _ = _unordered_of(claim, request.paytable)
        for condition, swapped in _symmetry_checks(claim, request.paytable):
            if request.event_ways(condition, swapped)[0] != request.event_ways(condition, None)[0]:
                raise AnalyzerError(
                    f'over = "{claim.over}" counts unordered sets of cards, but the condition '
                    f"{condition.shown[:80]!r} tells the cards apart (it holds for another "
                    "number of rounds with two of them exchanged)"
                )
        size = request.shoe.shoe().size
        dealt = sum(len(group) for group in sets.groups)
        counted = expected / (sets.orders * perm(size - dealt, ROUND_CARDS - dealt))
        assert scale > 1 or counted.denominator == 1, "whole sets of cards"
        return counted, f"of {sets.sets(size):,} {sets.noun}"

    def _session(self, claim: Claim, request: _Request) -> _Verdict:
        spec = claim.session
        assert spec is not None
        analysis = request.run()
        cycle = []
        for bet, times in spec.mix:
            results = _results(analysis, replace(claim, bet=bet))
            distributions = {mode: net_distribution(result) for mode, result in results.items()}
            if len({tuple(sorted(d.items())) for d in distributions.values()}) > 1:
                raise AnalyzerError(
                    f"bet {bet!r} pays differently by mode; name the 'mode' "
                    f"({', '.join(distributions)})"
                )
            cycle += [next(iter(distributions.values()))] * times
        # Imported here: the numeric sessions need mpmath, which no other claim does.
        from analyzer.analysis.session import session as play_session

        played = play_session(cycle, spec.rounds, method=spec.method)
        stake = spec.stake
        if spec.statistic in ("mean", "std_dev"):
            value = getattr(played, spec.statistic)()
            scale = stake
        elif spec.statistic == "quantile":
            value, scale = played.quantile(spec.level), stake
        else:
            args = [x / stake for x in (spec.amount, spec.low, spec.high) if x is not None]
            value, scale = getattr(played, spec.statistic)(*args), 1
        verdict = _Verdict(exact=value.value * scale, error=value.error * scale, mode=claim.mode)
        verdict.method = value.method
        if spec.statistic == "std_dev" and spec.method == "exact":
            # The square root of the exact variance, times the stake: exact too.
            verdict.exact = SquareRoot(played.variance().value * stake * stake)
            verdict.error, verdict.method = Fraction(0), "exact"
        if verdict.method == "normal":
            # The source used the normal approximation: its figure is checked against that
            # approximation itself (to the float's precision), not against the truth.
            verdict.error = abs(verdict.exact) / 10**12 + Fraction(1, 10**15)
            verdict.note = "normal approximation (no continuity correction)"
        elif verdict.method != "exact":
            verdict.note = f"{verdict.method}, within {float(verdict.error):.1e}"
        return verdict

    def _resolved(self, claim: Claim, request: _Request) -> _Verdict:
        """A bet's wins among its resolved decisions (the rounds it does not push): their
        share p, or of the wins in N of them, Binomial(N, p): the mean N p, the standard
        deviation sqrt(N p (1 - p)), a chance or a quantile; exact up to
        :data:`~analyzer.paytables.claims.EXACT_DECISIONS` decisions, a session's numeric
        value (with its error bound) past them."""
        spec = claim.resolved
        assert spec is not None
        shares = {}
        for mode, result in _results(request.run(), claim).items():
            resolved = 1 - result.push_probability
            if not resolved:
                raise AnalyzerError(
                    f"every round of bet {claim.bet!r} pushes: it has no resolved decisions"
                )
            shares[mode] = result.hit_frequency / resolved
        share, mode = _one_value(shares, claim)
        verdict = _Verdict(mode=mode)
        n = spec.decisions
        if spec.statistic == "share":
            verdict.exact = share
            verdict.note = "of the rounds the bet does not push (its resolved decisions)"
            return verdict
        assert n is not None
        verdict.note = f"binomial: {n:,} decisions, each won with probability {share}"
        if spec.statistic == "mean":
            verdict.exact = n * share
        elif spec.statistic == "std_dev":
            verdict.exact = SquareRoot(n * share * (1 - share))
        elif n <= EXACT_DECISIONS:
            verdict.exact = _binomial_figure(spec, share)
        else:
            from analyzer.analysis.session import session as play_session

            played = play_session([{Fraction(1): share, Fraction(0): 1 - share}], n)
            value = {
                "p_at_least": lambda: played.p_win_at_least(spec.amount),
                "p_at_most": lambda: played.p_between(0, spec.amount),
                "p_between": lambda: played.p_between(spec.low, spec.high),
                "quantile": lambda: played.quantile(spec.level),
            }[spec.statistic]()
            verdict.exact, verdict.error, verdict.method = value.value, value.error, value.method
            if verdict.method != "exact":
                verdict.note += f"; {verdict.method}, within {float(verdict.error):.1e}"
        return verdict

    def _counting(self, claim: Claim, paytable: Paytable, shoe: _ShoeOf) -> _Verdict:
        assert self.simulator is not None
        simulated = self.simulator.run(claim, paytable, shoe.decks)
        printed = read_printed(claim.value, claim.digits)
        factor = claim.scale * (100 if printed.percent else 1)
        claimed = Fraction(printed.number) / factor
        computed = compare_printed(
            Fraction(simulated.value), printed, claim.rounding, claim.scale
        ).computed
        # The printed figure stands for every value that prints as it: half a unit of its
        # last digit either way.
        half_unit = Fraction(10) ** printed.exponent / 2 / factor
        distance = max(Fraction(0), abs(claimed - Fraction(simulated.value)) - half_unit)
        if not simulated.standard_error >= 0:  # NaN: too few shoes bet to judge by
            raise AnalyzerError(
                "the simulated shoes bet too seldom to estimate the figure's error: raise 'shoes'"
            )
        passed = distance <= SIMULATION_TOLERANCE * Fraction(simulated.standard_error)
        return _Verdict(
            exact=None,
            computed=computed,
            passed=passed,
            mode=claim.mode,
            method="simulated",
            note=f"simulated {simulated.value:.6g} ± {simulated.standard_error:.2g} (SE); "
            f"{'within' if passed else 'beyond'} {SIMULATION_TOLERANCE} SE; {simulated.note}",
        )


def _given_possible(claim: Claim, given_ways: int) -> None:
    if given_ways == 0:
        raise AnalyzerError(
            "the 'given' condition never holds on this shoe: a probability given it is undefined"
            if claim.given is not None
            else "no round is possible on this shoe"
        )


def _claimed_bets(claim: Claim) -> tuple[str, ...]:
    if claim.session is not None:
        return tuple(bet for bet, _ in claim.session.mix)
    return () if claim.bet is None else (claim.bet,)


def _rule_of(claim: Claim, paytable: Paytable) -> int:
    """The 1-based number of the rule a claim names, by number or label, in every mode
    the claim is about; an unknown one is an error."""
    modes = paytable.modes if claim.mode is None else (claim.mode,)
    numbers = set()
    for bet, mode in paytable.offered(modes, (claim.bet,)):
        if claim.rule is not None:
            if claim.rule > len(bet.rules):
                raise AnalyzerError(
                    f"bet {bet.id!r} ({mode}) has {len(bet.rules)} rule(s): there is no rule "
                    f"{claim.rule}"
                )
            numbers.add(claim.rule)
            continue
        found = [n for n, rule in enumerate(bet.rules, 1) if claim.label in rule.labels.values()]
        if len(found) != 1:
            labels = [r.labels.get("en") for r in bet.rules if r.labels.get("en")]
            raise AnalyzerError(
                f"bet {bet.id!r} ({mode}) has {'no' if not found else 'more than one'} rule "
                f"labelled {claim.label!r}"
                + (f" (labels: {', '.join(map(repr, labels))})" if labels else " (no labels)")
            )
        numbers |= set(found)
    if len(numbers) > 1:
        raise AnalyzerError(f"rule {claim.label!r} is another line in each mode: name the 'mode'")
    if not numbers:
        raise AnalyzerError(f"bet {claim.bet!r} is not offered in mode {claim.mode!r}")
    return numbers.pop()


def _line_of(result: BetResult, claim: Claim, paytable: Paytable) -> Line:
    return result.lines[_rule_of(replace(claim, mode=result.mode), paytable) - 1]


def _bet_figure(result: BetResult, claim: Claim, paytable: Paytable) -> Fraction:
    if claim.rule is not None or claim.label is not None:
        line = _line_of(result, claim, paytable)
        if claim.quantity == "count":
            return Fraction(line.ways)  # weighted ways: _count makes them a count
        if claim.quantity == "probability":
            return line.probability
        return line.contribution  # the return of one line (its mean net, multiplied)
    value = getattr(result, BET_FIGURES[claim.quantity])
    if value is None:
        raise AnalyzerError(f"every round of bet {claim.bet!r} pushes: no edge per resolved bet")
    return value


def _results(analysis: Analysis, claim: Claim) -> dict[str, BetResult]:
    """The exact results a claim about one bet refers to (every mode, unless it names
    one), by mode."""
    wanted = [mode for mode in analysis.modes if claim.mode in (None, mode)]
    for bet, mode, why in analysis.unavailable:
        if bet == claim.bet and mode in wanted:
            raise NotComputable(f"bet {bet!r} cannot be computed exactly here: {why}")
    found = {r.mode: r for r in analysis.results if r.bet.id == claim.bet and r.mode in wanted}
    if not found:
        raise AnalyzerError(f"bet {claim.bet!r} is not offered in mode {claim.mode!r}")
    return found


def _one_value(values: Mapping[str, Fraction], claim: Claim) -> tuple[Fraction, str | None]:
    """The one value a claim refers to, and its mode (None: the same in every mode)."""
    if len(set(values.values())) > 1:
        raise AnalyzerError(
            f"{claim.quantity} of {claim.bet!r} differs by mode; name the 'mode' "
            f"({', '.join(values)})"
        )
    return next(iter(values.values())), claim.mode


def _compared(verdict: _Verdict, claim: Claim) -> _Verdict:
    printed = read_printed(claim.value, claim.digits)
    if claim.printed == "float":
        if verdict.error:
            raise NotComputable(
                "a figure known only within a bound has no one nearest double: "
                'printed = "float" needs it exact'
            )
        comparison = compare_float(verdict.exact, printed, claim.scale)
        double = float_printed(verdict.exact, claim.scale, printed.percent)
        verdict.note = "; ".join(
            filter(None, [f"printed from the double {double!r}", verdict.note])
        )
    else:
        comparison = compare_printed(
            verdict.exact, printed, claim.rounding, claim.scale, verdict.error
        )
    verdict.computed = comparison.computed + verdict.after
    verdict.passed, verdict.last_digit = comparison.passed, comparison.last_digit
    return verdict


def _each_shoe(claim: Claim) -> list[Claim]:
    """A claim across deck counts as one claim per deck count."""
    return [replace(claim, decks=decks, decks_over=(), across=None) for decks in claim.decks_over]


def _order(exact: Exact | None) -> Fraction:
    """What orders exact values of one quantity (a standard deviation by its square)."""
    if isinstance(exact, SquareRoot):
        return exact.square
    assert exact is not None
    return Fraction(exact)


def _unknowns_named(paytable: Paytable) -> str:
    names = ", ".join(name for name, _, _ in paytable.unknowns)
    return f"{paytable.source} has unknowns ({names})"


def _ranges(paytable: Paytable) -> str:
    return ", ".join(f"{name} in {low}..{high}" for name, low, high in paytable.unknowns)


def _is_constant(value: Fraction | Poly) -> bool:
    return not isinstance(value, Poly) or value.is_constant


def _constant(value: Fraction | Poly) -> Fraction:
    """A figure the unknowns do not move, as the Fraction it is."""
    if isinstance(value, Poly):
        assert value.is_constant
        return value.at(dict.fromkeys(value.names, Fraction(0)))
    return Fraction(value)


def _binomial_figure(spec: ResolvedSpec, share: Fraction) -> Fraction:
    """A chance or quantile of the wins in ``spec.decisions`` decisions, each won with
    ``share``: the binomial summed exactly, its terms ``C(n, k) a^k b^(n-k)`` over
    ``c^n`` (``share = a / c``, ``b = c - a``), each made from the one before with
    integers."""
    n = spec.decisions
    assert n is not None
    a, c = share.numerator, share.denominator
    b = c - a

    def terms(low: int, high: int):
        """The terms from ``low`` to ``high`` wins, in turn."""
        if a == 0 or b == 0:  # every decision won, or none: one term, c^n
            sure = n if b == 0 else 0
            yield from (c**n if k == sure else 0 for k in range(low, high + 1))
            return
        each = math.comb(n, low) * a**low * b ** (n - low)
        for k in range(low, high + 1):
            yield each
            if k < high:
                each = each * (n - k) * a // ((k + 1) * b)

    if spec.statistic == "quantile":  # the fewest wins k with P(wins <= k) >= level
        assert spec.level is not None
        wanted, total = spec.level * c**n, 0
        for k, each in enumerate(terms(0, n)):
            total += each
            if total >= wanted:
                return Fraction(k)
        return Fraction(n)
    low, high = {
        "p_at_least": (spec.amount, n),
        "p_at_most": (0, spec.amount),
        "p_between": (spec.low, spec.high),
    }[spec.statistic]
    assert low is not None and high is not None
    return Fraction(sum(terms(low, high)), c**n)


def largest_payout(result: BetResult) -> tuple[Fraction, str]:
    """The largest win per unit staked a round can pay ``result``'s bet on its shoe, and
    a note: every line some round settles, its payout at the largest multiplier its
    counted cards' identity patterns can carry (the cap, where it binds), times the
    largest stake a decision plays it at. The fee is not taken off (a win is paid on the
    stake).

    Parameters
    ----------
    result : BetResult
        The bet's exact result on the shoe (its lines, with their identity patterns).

    Returns
    -------
    tuple of (Fraction, str)
        The largest win per unit staked, and a note (the cap, the fee, a raised stake).

    Raises
    ------
    AnalyzerError
        For a bet with a progressive jackpot, or one no round of the shoe pays.
    NotComputable
        Where the bet's lines are not priced (a decision's chances in unknowns).

    Examples
    --------
    >>> from analyzer import analyze
    >>> largest_payout(analyze(bets=["lucky_six"], mode="commission").result("lucky_six"))
    (Fraction(20, 1), '')
    """
    from analyzer.paytables.multipliers import reachable_extremes

    bet = result.bet
    if not result.lines:  # (a decision's chances in unknowns: no line is priced)
        raise NotComputable(
            f"the rounds of bet {bet.id!r} are not priced line by line here: give the "
            "unknowns values (--unknowns)"
        )
    best: Fraction | None = None
    capped = raised = False
    for line in result.lines:
        payout = line.payout
        if not line.ways or (payout.net <= 0 and not payout.per_multiplier):
            continue
        if payout.jackpot:
            raise AnalyzerError(
                f"bet {bet.id!r} pays a progressive jackpot: its largest payout is the meter's"
            )
        nets = [payout.net]
        if line.patterns and payout.per_multiplier:
            assert bet.multipliers is not None
            nets = []
            for pattern, ways in line.patterns:
                if not ways:
                    continue
                low, high = reachable_extremes(bet.multipliers, IDENTITY_PATTERNS[pattern])
                multiplier = high if payout.per_multiplier > 0 else low
                capped |= bet.multipliers.cap is not None and multiplier == bet.multipliers.cap
                nets.append(payout.net + payout.per_multiplier * multiplier)
        if line.stakes:
            stakes = [stake for stake, ways in line.stakes if ways]
            raised |= max(stakes) > 1
            nets = [net * max(stakes) if net > 0 else net * min(stakes) for net in nets]
        for net in nets:
            if net > 0 and (best is None or net > best):
                best = net
    if best is None:
        raise AnalyzerError(f"bet {bet.id!r} wins in no round of this shoe: it has no payout")
    notes = []
    if raised:
        notes.append("per base stake, at the largest stake a decision raises it to")
    if capped:
        notes.append(f"the multiplier capped at {bet.multipliers.cap}")
    if bet.fee:
        notes.append("per unit staked, the fee not taken off")
    return best, "; ".join(notes)


def payouts_shown(printed: Iterable[object]) -> str:
    """Payouts as written, highest first: the one order both sides of a payouts claim are
    shown in (they are compared as a multiset, so the order carries nothing)."""
    values = list(printed)
    by_net = sorted(values, key=lambda value: parse_payout(value).net, reverse=True)
    return ", ".join(map(str, by_net))


def _payout_key(payout: Payout) -> tuple[bool, Fraction, Fraction]:
    """What a payouts claim compares of a payout: the jackpot, or its constant and slope."""
    if payout.jackpot:
        return True, Fraction(0), Fraction(0)
    return False, payout.net, payout.per_multiplier


def _paytable_fact(paytable: Paytable, claim: Claim) -> _Verdict:
    """A claim about the paytable itself (payouts, max round, decks), whatever the shoe."""
    if claim.quantity == "decks":
        return _Verdict(computed=str(paytable.decks), passed=paytable.decks == claim.value)
    modes = paytable.modes if claim.mode is None else (claim.mode,)
    offered = {id(bet): (bet, mode) for bet, mode in paytable.offered(modes, (claim.bet,))}
    if not offered:
        raise AnalyzerError(f"bet {claim.bet!r} is not offered in mode {claim.mode!r}")
    if len(offered) > 1:
        raise AnalyzerError(
            f"bet {claim.bet!r} has a different paytable in each mode; name the 'mode' "
            f"({', '.join(mode for _, mode in offered.values())})"
        )
    bet = next(iter(offered.values()))[0]
    if claim.quantity == "max_round":
        computed = "none" if bet.max_round is None else bet.max_round
        return _Verdict(computed=str(computed), passed=computed == claim.value, mode=claim.mode)
    paid = [rule.payout for rule in bet.rules if rule.payout.pays]
    if claim.quantity == "payout":  # one payout: one of the bet's
        passed = _payout_key(parse_payout(claim.value)) in set(map(_payout_key, paid))
        return _Verdict(
            computed=payouts_shown(p.text for p in paid), passed=passed, mode=claim.mode
        )
    # Help pages list payouts in their own order: compare them as a multiset.
    # A payout linear in the multiplier is its constant and its slope ("9 * multiplier");
    # the jackpot is "jackpot", whatever the meter.
    claimed = sorted(map(_payout_key, map(parse_payout, claim.value)))
    passed = sorted(map(_payout_key, paid)) == claimed
    return _Verdict(computed=payouts_shown(p.text for p in paid), passed=passed, mode=claim.mode)


#: The longest exact fraction a row gives in full (its numerator or denominator in bits,
#: some 4,000 digits): a longer one is given as a decimal, its size in the note.
_SHOWN_BITS = 13_000


def _exact_text(verdict: _Verdict) -> str:
    if verdict.exact_text is not None:
        return verdict.exact_text
    if verdict.exact is None:
        return ""
    if isinstance(verdict.exact, Fraction) and not verdict.error and _too_long(verdict.exact):
        return f"{float(verdict.exact):.12g}"
    if verdict.error:
        return f"{float(verdict.exact):.12g}"
    if isinstance(verdict.exact, SquareRoot):
        return str(verdict.exact)
    return shown_fraction(verdict.exact)


def verify_claims(
    claims: list[Claim],
    shoe: Shoe | None = None,
    *,
    decks: int | None = None,
    remove: Iterable[Card] = (),
    simulator: Simulator | None = None,
    paytable: Paytable | str | os.PathLike[str] | None = None,
    each: bool = False,
) -> pd.DataFrame:
    """One row per claim (see :data:`COLUMNS`): the printed figure, the exact value
    printed the same way and as a fraction, PASS or FAIL.

    Each claim is checked on its own shoe: its paytable's decks, or the claims file's or
    its own ``decks``, less the cards it ``remove``s. ``decks`` (every claim on that many
    decks), ``shoe`` (every claim on this shoe) and ``remove`` (more cards out of every
    claim's shoe) come on top, as the command line's options do. ``paytable`` (a paytable,
    a shipped name or a file) checks every claim against it instead of the paytable each
    claim names: a variant's figures against another's published ones. ``each``: a claim
    that cannot be stated on its paytable (a bet it lacks, a mode it must name...) is a
    row of its own, result ``NOT STATEABLE`` and the reason its note, and the others are
    checked (by default the first such claim is an error), as ``certify`` needs of the
    claims it infers from a page."""
    import pandas as pd

    claims = list(sequence_of(claims, Claim, "claims", "Claim objects", " (see load_claims)"))
    argument(shoe, (Shoe, type(None)), "shoe", " (see Shoe)")
    if decks is not None:
        decks = check_decks(decks)
        if shoe is not None:
            raise AnalyzerError("give decks or shoe, not both")
    remove = sequence_of(remove, Card, "remove", "Card objects", " (see parse_cards)")
    given = None if paytable is None else as_paytable(paytable)
    verifier = _Verifier(decks, tuple(remove), shoe, simulator, given)
    unstated: dict[int, str] = {}
    for claim in claims:
        try:
            _named(claim, verifier.plan)
        except AnalyzerError as exc:
            if not each:
                raise
            unstated[claim.number] = str(exc)
    from tqdm import tqdm

    from analyzer.progress import bar_options

    rows = []
    # A bar of the claims checked (each paytable and shoe's analysis made at its first
    # claim), as the process's progress setting says (by default on a terminal only).
    for claim in tqdm(claims, desc="verify", unit="claim", **bar_options(leave=False)):
        result = None
        try:
            if claim.number in unstated:
                raise AnalyzerError(unstated[claim.number])
            verdict = _named(claim, verifier.check)
        except NotComputable as exc:
            verdict = _Verdict(note=str(exc).split(": ", 1)[1], method="")
            verdict.computed = "-"
            verdict.passed = None
        except AnalyzerError as exc:
            if not each:
                raise
            verdict = _Verdict(note=str(exc).split(": ", 1)[-1], method="", computed="-")
            result = NOT_STATEABLE
        paytable = verifier.paytable(claim)
        claimed = claim.value
        if claim.quantity == "payouts":
            claimed = payouts_shown(claim.value)
        elif claim.across == "range":
            claimed = " to ".join(claim.value)
        shown_shoe = "-"  # a fact of the paytable: no shoe enters
        if claim.quantity not in PAYTABLE_FACTS:
            shown_shoe = verifier.shown_shoe(claim, paytable)
        if claim.effect_of:
            shown_shoe += f", then less {' '.join(map(str, claim.effect_of))}"
        if claim.strategy is not None:  # how the source played the decision cells
            shown_shoe = f"{shown_shoe}, {claim.strategy}" if shown_shoe != "-" else "-"
        rows.append(
            {
                "claim": claim.number,
                "result": result or RESULTS[verdict.passed],
                "last_digit": verdict.last_digit,
                "paytable": paytable.source,
                "shoe": shown_shoe,
                "quantity": claim.quantity,
                "bet": claim.subject,
                "mode": verdict.mode or "-",
                "claimed": str(claimed),
                "computed": verdict.computed,
                "exact": _exact_text(verdict),
                "method": verdict.method
                if verdict.exact is not None
                or claim.counting
                or verdict.method == "fit"
                or verdict.exact_text
                else "",
                "note": "; ".join(filter(None, [verdict.note, *_remarks(claim, verdict)])),
                "source": claim.source,
            }
        )
    return pd.DataFrame(rows, columns=list(COLUMNS))


#: A claim's result: confirmed, refuted, or not checked (this shoe cannot give it exactly).
RESULTS = {True: "PASS", False: "FAIL", None: "UNCHECKED"}
#: The result of a claim its paytable cannot state (``verify_claims(each=True)`` only).
NOT_STATEABLE = "NOT STATEABLE"


def _remarks(claim: Claim, verdict: _Verdict) -> list[str]:
    """What a reader needs beside a verdict: the source's scale, a known slip (or a slip
    note gone stale: the figure passes)."""
    out = []
    exact = verdict.exact
    if isinstance(exact, Fraction) and not verdict.error and _too_long(exact):
        # (digits counted from bits: converting them would take long, and Python limits it)
        top, bottom = (
            round(abs(part).bit_length() * math.log10(2))
            for part in (exact.numerator, exact.denominator)
        )
        out.append(f"exactly a fraction of about {top:,} digits over {bottom:,}, too long to give")
    if claim.scale != 1:
        out.append(f"printed times {shown_fraction(claim.scale)}")
    if claim.slip and verdict.passed:
        out.append(f"marked as a slip of the source, but it passes: {claim.slip}")
    elif claim.slip:
        out.append(f"a slip of the source: {claim.slip}")
    return out


def _too_long(exact: Fraction) -> bool:
    """Is an exact fraction too long for a row (given as a decimal instead)?"""
    return max(exact.numerator.bit_length(), exact.denominator.bit_length()) > _SHOWN_BITS


def _named(claim: Claim, step):
    """``step(claim)``, any error naming the claim."""
    try:
        return step(claim)
    except AnalyzerError as exc:
        message = str(exc)
        if not message.startswith("claim "):
            message = f"claim {claim.number}: {message}"
        raise type(exc)(message) from None
