"""The Python entry point: analyse every bet of a paytable on a shoe, exactly."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from fractions import Fraction
from functools import cached_property, partial
from typing import TYPE_CHECKING, Literal, NamedTuple

import numpy as np

from analyzer.analysis.bets import BetResult, evaluate_bet, evaluate_on_tables, over_fewer
from analyzer.analysis.budget import (
    FEWER_CARD_BETS,
    card_walks,
    check_visits,
    shared_literals,
    walked,
)
from analyzer.analysis.columns import BetColumns, settle_rows
from analyzer.engine.counts import OutcomeCounts, stored_counts
from analyzer.engine.outcomes import OutcomeTable, identity_tables, outcome_table
from analyzer.engine.pairs import pair_ways
from analyzer.engine.pricing import Pricing, pricing, table_detail
from analyzer.errors import AnalyzerError
from analyzer.game.fields import (
    N_PAIR_STATES,
    PAIR_FIELDS,
    SUITED_PAIR_FIELDS,
    PairDetail,
    pair_columns,
    pair_detail_needed,
)
from analyzer.game.rules import Mixture
from analyzer.game.shoe import ROUND_CARDS, Shoe
from analyzer.memo import Kept, once
from analyzer.paytables.library import as_paytable, seed_paytable
from analyzer.paytables.model import Bet, Paytable, resolve_modes, with_values
from analyzer.paytables.printed import printed_value
from analyzer.records import record
from analyzer.schema import argument, given_unknowns, sequence_of

if TYPE_CHECKING:  # (pandas is imported where a frame is made: a report needs none)
    import pandas as pd

    from analyzer.analysis.card_columns import CardColumns


class NothingComputable(AnalyzerError):
    """No bet asked for can be priced exactly on the shoe (suits unknown, or bets on the
    cards on an infinite deck): one line for a command, a claim left unchecked by verify."""


class UnknownsLeft(NothingComputable):
    """The paytable's multipliers have unknowns, and no values were given for them."""


def check_known(paytable: Paytable) -> None:
    """Refuse, in one line, a paytable whose probabilities still have unknowns."""
    if paytable.unknowns:
        names = ", ".join(name for name, _, _ in paytable.unknowns)
        if paytable.multipliers is not None:
            what = "the multipliers' distribution has"
        else:
            what = "the chances of the decision's cards shown have"
        # Every command that reads a paytable takes --unknowns: no list to fall behind.
        raise UnknownsLeft(
            f"{paytable.source}: {what} unknowns ({names}): give them values with "
            "--unknowns NAME=VALUE (unknowns= in Python), or find what "
            "published figures allow with 'baccarat-odds fit'"
        )


#: Decimals of the maximum RTP in an analysis' repr.
MAX_RTP_DIGITS = 4

#: The columns of :attr:`Analysis.summary`, whose index is always (bet, mode).
SUMMARY_COLUMNS = [
    "name",
    "house_edge",
    "rtp",
    "hit_frequency",
    "push_probability",
    "variance",
    "std_dev",
    "edge_per_resolved",
    "max_round",
    "house_edge_percent",
    "rtp_percent",
]


@record(eq=False)
class Analysis:
    """Every requested (bet, mode) on one shoe.

    ``summary`` (also :meth:`to_frame`) is indexed by (bet, mode) whatever the modes
    asked for, its columns always :data:`SUMMARY_COLUMNS`; exact columns hold
    :class:`~fractions.Fraction`, ``*_percent`` and ``std_dev`` floats. A notebook shows
    an analysis as that table.

    Examples
    --------
    >>> from analyzer import analyze
    >>> analysis = analyze(paytable="ez-baccarat")
    >>> round(float(analysis.summary.loc[("dragon_7", "ez"), "house_edge_percent"]), 4)
    7.6113
    >>> analysis.best().bet.id
    'banker'
    """

    paytable: Paytable
    shoe: Shoe
    modes: tuple[str, ...]
    #: What works out :attr:`counts` (called once, when they are first asked for).
    counting: Callable[[], OutcomeCounts]
    results: tuple[BetResult, ...]
    #: (bet id, mode, why) of the bets this shoe cannot price exactly (suits unknown).
    unavailable: tuple[tuple[str, str, str], ...] = ()

    @cached_property
    def counts(self) -> OutcomeCounts:
        """The enumerator's counts of the shoe: those the bets on the round's outcome were
        settled on, or, where every bet was priced on the cards, worked out when first
        asked for (0.5 ms of each analysis of a card paytable, and of each removal in
        its effects of removal, that nothing read)."""
        return self.counting()

    def __repr__(self) -> str:
        # Short and about this analysis: the dataclass' own repr printed every bet's rules
        # and the paytable's own decks (not the shoe's) over thousands of characters.
        parts = [
            f"{self.paytable.name!r} on {self.shoe.describe()}",
            f"modes {', '.join(self.modes)}",
            f"{len(self.results)} (bet, mode) results",
        ]
        if self.unavailable:
            parts.append(f"{len(self.unavailable)} not computable exactly")
        if self.results and all(isinstance(r.rtp, Fraction) for r in self.results):
            best = self.best()
            parts.append(
                f"max RTP {printed_value(best.rtp, MAX_RTP_DIGITS)} ({best.bet.id}, {best.mode})"
            )
        elif self.results:  # symbolic: some figures are polynomials in the unknowns
            parts.append("figures in the multipliers' unknowns")
        return f"<Analysis of {'; '.join(parts)}>"

    @cached_property
    def choices(self) -> dict:
        """Per (bet, mode) of a game with a decision, its strategy table: each information
        set's :class:`~analyzer.analysis.decisions.Choice` (the cards seen, the exact
        expected net of each action, the best); empty for a game without one."""
        return {}

    def strategy(self, bet: str, mode: str | None = None) -> pd.DataFrame:
        """The strategy table of ``bet`` (in ``mode``) as a frame: a row per information
        set, the point values seen (None: a card not shown, where the cards shown are
        random), its probability, each action's exact expected net per base stake and the
        best action (a bet's figures are under this play)."""
        import pandas as pd

        result = self.result(bet, mode)
        table = self.choices.get((result.bet.id, result.mode))
        if table is None:
            raise AnalyzerError(f"bet {bet!r} is settled without a decision: no strategy table")
        sees = self.paytable.decision.sees
        rows = [
            {
                **choice.values_of(sees),
                "probability": choice.probability,
                **{f"ev_{name}": value for name, value in choice.values.items()},
                "best": choice.best,
            }
            for choice in table
        ]
        return pd.DataFrame(rows)

    @cached_property
    def outcomes(self) -> OutcomeTable:
        """The counts as a table: a row per outcome cell the shoe reaches (made when
        asked for: the bets were settled on the counts themselves). For another game of
        the family, the deal walk's table over every field its bets read."""
        game = self.paytable.game
        if game is not None and game.by_values:
            raise AnalyzerError(
                f"{game.name} is played under each action: its rounds are not one table "
                "(see the strategy table, Analysis.strategy)"
            )
        if game is not None:
            from analyzer.engine.deal_walk import dealt_outcomes

            fields = frozenset().union(*(r.bet.fields for r in self.results))
            # (with replacement, in the lowest terms the bets were counted in)
            walked = self.shoe.in_lowest_terms(suits=game.needs_suits(fields))
            return dealt_outcomes(game, walked, fields)
        return outcome_table(self.counts)

    @property
    def summary(self) -> pd.DataFrame:
        """One row per bet and mode (index: bet, mode): every figure exact (``house_edge``,
        ``rtp``, ``hit_frequency``, ``push_probability``, ``variance``, ...) and ``std_dev``.
        """
        import pandas as pd

        rows = []
        for r in self.results:
            rows.append(
                {
                    "bet": r.bet.id,
                    "name": r.bet.name,
                    "mode": r.mode,
                    "house_edge": r.house_edge,
                    "rtp": r.rtp,
                    "hit_frequency": r.hit_frequency,
                    "push_probability": r.push_probability,
                    "variance": r.variance,
                    "std_dev": r.std_dev,
                    "edge_per_resolved": r.edge_per_resolved,
                    "max_round": r.bet.max_round,
                    "house_edge_percent": float(100 * r.house_edge),
                    "rtp_percent": float(100 * r.rtp),
                }
            )
        frame = pd.DataFrame(rows, columns=["bet", "mode", *SUMMARY_COLUMNS])
        frame["max_round"] = frame["max_round"].astype("Int64")
        # One shape whatever the modes: (bet, mode) is unique, a bet alone is not.
        return frame.set_index(["bet", "mode"])

    def to_frame(self) -> pd.DataFrame:
        """The :attr:`summary`: a row per (bet, mode), the same columns whatever was asked."""
        return self.summary

    def _repr_html_(self) -> str:
        return self.summary.to_html()

    def result(self, bet: str, mode: str | None = None) -> BetResult:
        """The :class:`BetResult` of bet ``bet`` (in ``mode``, else its first mode analysed).

        Raises
        ------
        AnalyzerError
            When no bet of that id (and mode) was analysed.
        """
        argument(bet, str, "bet", " (a bet id)")
        argument(mode, (str, type(None)), "mode", " (a mode name)")
        for r in self.results:
            if r.bet.id == bet and (mode is None or r.mode == mode):
                return r
        raise AnalyzerError(f"no result for bet {bet!r}" + (f" in mode {mode!r}" if mode else ""))

    def breakdown(self, bet: str, mode: str | None = None) -> pd.DataFrame:
        """Each paying line of bet ``bet`` (in ``mode``): its probability, net and
        contribution, exact and as floats (:attr:`BetResult.breakdown`).
        """
        return self.result(bet, mode).breakdown

    def best(self) -> BetResult:
        """The bet with the highest RTP (the game's "maximum RTP")."""
        return max(self.results, key=lambda r: r.rtp)

    @property
    def max_rtp(self) -> Fraction:
        """The exact RTP of the best bet (:meth:`best`)."""
        return self.best().rtp

    def warnings(self) -> list[str]:
        """Rules that settle no round of this shoe: a typo in a condition, or dead code."""
        out = []
        for r in self.results:
            for number, line in enumerate(r.lines[: len(r.bet.rules)], 1):
                if line.ways:
                    continue
                why = (
                    "no round can satisfy it"
                    if line.matched == 0
                    else "earlier rules settle every round it matches"
                )
                out.append(
                    f"{self.paytable.source}: bet {r.bet.id!r} ({r.mode}): rule {number} "
                    f"({line.when}) settles no round: {why}"
                )
        return list(dict.fromkeys(out))


def offered_bets(
    paytable: Paytable, modes: tuple[str, ...], bets: list[str] | tuple[str, ...] | None
) -> list[tuple[Bet, str]]:
    """The (bet, mode) pairs an analysis of ``bets`` (None: every bet) in ``modes`` covers,
    in paytable order; unknown bets, or none on offer, are one clear error."""
    if isinstance(bets, str):
        raise AnalyzerError(f"bets must be a list of bet ids, e.g. [{bets!r}]")
    bet_ids = None if bets is None else sequence_of(bets, str, "bets", "bet ids")
    if bet_ids is not None:
        paytable.check_bet_ids(bet_ids)
    offered = list(paytable.offered(modes, bet_ids))
    if not offered:
        raise AnalyzerError("no bet of the paytable is offered in the chosen mode")
    return offered


def _walked_counts(shoe: Shoe, detail: PairDetail, mixture: Mixture) -> OutcomeCounts:
    """The enumerator's counts (Numba, imported here: a stored count needs none)."""
    from analyzer.engine.enumerator import mixture_outcomes

    return mixture_outcomes(shoe, detail, mixture)


def analyze(
    decks: int | None = None,
    mode: Literal["commission", "no_commission", "both"] | str | None = "both",
    bets: list[str] | tuple[str, ...] | None = None,
    paytable: Paytable | str | os.PathLike[str] | None = None,
    shoe: Shoe | None = None,
    *,
    symbolic: bool = False,
    unknowns: Mapping[str, Fraction | int | str] | None = None,
) -> Analysis:
    """Exact house edge of every bet (or ``bets``) of ``paytable`` (default: the seed game).

    The shoe is ``shoe`` if given, else ``decks`` full decks (default: the paytable's).
    A paytable whose multipliers have unknowns is analysed only ``symbolic``: its
    multiplied bets' figures are then polynomials in the unknowns
    (:class:`~analyzer.paytables.unknowns.Poly`), as :mod:`analyzer.analysis.fit` solves them.

    Parameters
    ----------
    decks : int or None
        Full 52-card decks of the shoe (default: the paytable's); not with ``shoe``.
    mode : str or None
        A betting mode of the paytable, or ``"both"`` / ``"all"`` / None for every mode.
    bets : list of str or None
        The bet ids to analyse (default: every bet offered).
    paytable : Paytable or str or os.PathLike or None
        A paytable, a shipped paytable's name or a ``.toml`` file (default: ``seed-game``).
    shoe : Shoe or None
        The shoe to deal from (a partly dealt one, say); not with ``decks``.
    symbolic : bool
        Analyse a paytable whose multipliers have unknowns, in those unknowns.
    unknowns : mapping of str to Fraction or int or str, or None
        Values of the paytable's unknowns, exact (``{"p": "1/4"}``), as ``--unknowns``.

    Returns
    -------
    Analysis
        Every (bet, mode) result; :attr:`Analysis.summary` is their table.

    Raises
    ------
    AnalyzerError
        An unknown paytable, mode or bet, both ``decks`` and ``shoe``, a shoe on which no
        bet can be priced exactly, or an argument of the wrong type (one line).

    Examples
    --------
    >>> from analyzer import analyze
    >>> analysis = analyze(paytable="ez-baccarat", decks=8)
    >>> analysis.result("player").house_edge
    Fraction(241149546272, 19524993263685)
    >>> list(analysis.summary.index.names)
    ['bet', 'mode']
    """
    paytable = seed_paytable() if paytable is None else as_paytable(paytable)
    if unknowns is not None:
        paytable = with_values(paytable, unknowns=given_unknowns(unknowns), prefix="")
    if shoe is None:
        shoe = Shoe.standard(paytable.decks if decks is None else decks)
    elif not isinstance(shoe, Shoe):
        raise AnalyzerError(f"shoe must be a Shoe, got {type(shoe).__name__}")
    elif decks is not None:
        raise AnalyzerError("give decks or shoe, not both")
    modes = resolve_modes(paytable, mode)
    if paytable.game is not None:
        if not symbolic:
            check_known(paytable)
        return _analyze_game(paytable, shoe, tuple(modes), bets)
    if paytable.punto_banco_decision is not None:
        return _analyze_decided(paytable, shoe, tuple(modes), bets, bool(symbolic))
    request = _request(paytable, tuple(modes), bets, shoe.suits_known, bool(symbolic))
    offered, plans, mixture = request.offered, request.plans, request.mixture
    # Every card walk is planned, and the lot checked against the budget, before any work
    # (bets the class walk settles walk no cards: its cost is the value walk's).
    if request.cards:
        walks = card_walks(request.walked_bets, shoe, mixture)
        check_visits(walked(walks), "the exact analysis", FEWER_CARD_BETS)
    else:
        walks = {}

    # (A partial of module functions: an analysis pickles, to a worker and back.)
    counting = partial(stored_counts, shoe, request.detail, mixture, _walked_counts)
    on_table = request.on_table
    if request.apart is not None and not on_table and not shoe.replacement:
        # Bets on pairs alone in closed form, the others on the value walk: the joint
        # counts are worked out only if asked for (Analysis.counts).
        counts = None
        settled = iter(request.apart.evaluate(shoe, mixture))
    else:
        counts = counting() if request.together.offered or on_table else None
        settled = iter(request.together.evaluate(counts))
    table: OutcomeTable | None = None  # made where a bet needs its rows (few do)
    by_identities: dict[str, OutcomeTable] = {}
    if request.walked_kinds:  # one identity walk for every kind the priced bets use
        from analyzer.engine.identities import identity_outcomes_of

        by_kind = identity_outcomes_of(shoe, request.walked_kinds, mixture)
        by_identities = identity_tables(by_kind)
    by_class = [iter(columns.evaluate(shoe)) for columns in request.card_columns]
    results, unavailable = [], []
    if all(request.on_the_table):  # (every bet settled together: no other engine)
        results = list(settled)
    else:
        for (bet, bet_mode), plan, why, together, classed in zip(
            offered, plans, request.why_not, request.on_the_table, request.by_class, strict=True
        ):
            if why is not None:
                unavailable.append((bet.id, bet_mode, why))
            elif together:
                results.append(next(settled))
            elif classed >= 0:
                results.append(next(by_class[classed]))
            elif plan.engine == "cards":
                results.append(evaluate_bet(walks[plan.walk].table(), bet, bet_mode))
            elif plan.kind is not None:
                results.append(evaluate_bet(by_identities[plan.kind], bet, bet_mode))
            else:  # multiplied by a hand's first two cards: their pattern is a field of the row
                table = outcome_table(counts) if table is None else table
                results.append(evaluate_bet(table, bet, bet_mode))
    if not results:
        raise NothingComputable("no bet can be computed exactly on this shoe: " + unavailable[0][2])
    if shoe.replacement:
        results = [_in_own_terms(result, shoe) for result in results]
    analysis = Analysis(paytable, shoe, modes, counting, tuple(results), tuple(unavailable))
    if counts is not None:
        analysis.__dict__["counts"] = counts  # (what cached_property keeps: not counted again)
    return analysis


_NO_SUITS = "the bet looks at suits, but the suits of some cards of the shoe are unknown"


def _own_fields(bet: Bet) -> frozenset[str]:
    """The fields of a bet's table: those it reads (and the winner, for a multiplied bet:
    a rule paying by the multiplier on a tie is refused)."""
    return bet.fields | {"winner"} if bet.multiplied else bet.fields


class _DealtRequest(NamedTuple):
    """What an analysis of a game without drawing works out of its paytable alone: the
    (bet, mode) pairs priced and those unavailable for want of suits (``(bet id, mode,
    why)``), the fields the priced bets read, whether any is a suit's, and each priced
    bet's table's fields (:func:`_own_fields`)."""

    paytable: Paytable
    priced: tuple[tuple[Bet, str], ...]
    unavailable: tuple[tuple[str, str, str], ...]
    fields: frozenset[str]
    suits: bool
    own: tuple[frozenset[str], ...]


#: Requests of games' paytables kept (:func:`_dealt_request`).
_dealt_requests: Kept[_DealtRequest] = Kept(32)


def _dealt_request(
    paytable: Paytable, modes: tuple[str, ...], bets: object, suits_known: bool
) -> _DealtRequest:
    """The :class:`_DealtRequest` of ``bets`` (None: all) of ``paytable`` in ``modes`` on
    a shoe whose suits are known or not, worked out or kept (as :func:`_request`)."""
    kept = bets is None or (
        isinstance(bets, (list, tuple)) and all(type(bet_id) is str for bet_id in bets)
    )
    key = (id(paytable), modes, tuple(bets) if kept and bets is not None else None, suits_known)
    request = _dealt_requests.get(key) if kept else None
    if request is not None and request.paytable is paytable:  # (it holds the paytable)
        return request
    game = paytable.game
    priced, unavailable = [], []
    for bet, bet_mode in offered_bets(paytable, modes, bets):
        if suits_known or not game.needs_suits(bet.fields):
            priced.append((bet, bet_mode))
        else:
            unavailable.append((bet.id, bet_mode, _NO_SUITS))
    fields = frozenset().union(*(bet.fields for bet, _ in priced))
    request = _DealtRequest(
        paytable,
        tuple(priced),
        tuple(unavailable),
        fields,
        game.needs_suits(fields),
        tuple([_own_fields(bet) for bet, _ in priced]),
    )
    return _dealt_requests.put(key, request) if kept else request


def _analyze_game(paytable: Paytable, shoe: Shoe, modes: tuple[str, ...], bets: object) -> Analysis:
    """The analysis of a paytable of a game without drawing (:mod:`analyzer.game.games`):
    one deal walk over every field the bets read, each bet settled on a table of that
    walk over only the fields it reads (the others summed out: :func:`~analyzer.engine.
    deal_walk.dealt_tables`), a condition's mask shared by the bets asking it. Bets on
    suits are unavailable on a shoe whose suits are unknown, as punto banco's are."""
    from analyzer.engine.deal_walk import check_deal_walk, dealt_tables  # (Numba)

    game = paytable.game
    request = _dealt_request(paytable, modes, bets, shoe.suits_known)
    priced, unavailable = list(request.priced), list(request.unavailable)
    if not priced:
        raise NothingComputable("no bet can be computed exactly on this shoe: " + _NO_SUITS)
    if game.by_values:  # cards after the deal (a hand's rule, an action), or a decision
        from analyzer.analysis.decisions import best_play

        # A bet whose walk by card classes is over the budget is unavailable, as a bet
        # on suits is on a shoe without them (each is walked alone where together the
        # bets are not: best_play).
        walkable = []
        for bet, bet_mode in priced:
            try:
                check_deal_walk(game, shoe, bet.fields)
            except AnalyzerError as exc:
                unavailable += ((bet.id, bet_mode, str(exc)),)
            else:
                walkable.append((bet, bet_mode))
        if not walkable:
            bet, _, why = unavailable[0]
            raise NothingComputable(
                f"no bet can be computed exactly on this shoe: bet {bet!r}: {why}"
            )
        played, choices = best_play(paytable, shoe, walkable)
        analysis = Analysis(
            paytable, shoe, modes, partial(_no_counts, paytable), tuple(played), tuple(unavailable)
        )
        analysis.__dict__["choices"] = choices
        return analysis
    fields = request.fields
    # A bet whose own walk is over the budget is unavailable, as a bet on suits is on a
    # shoe without them; the others are priced (each alone where together they are not).
    # Where the walk of every field fits, each bet's own does (it reads fewer fields).
    walkable = []
    try:
        check_deal_walk(game, shoe, fields)
    except AnalyzerError:
        for bet, bet_mode in priced:
            try:
                check_deal_walk(game, shoe, bet.fields)
            except AnalyzerError as exc:
                unavailable.append((bet.id, bet_mode, str(exc)))
            else:
                walkable.append((bet, bet_mode))
        if not walkable:
            raise NothingComputable(
                "no bet can be computed exactly on this shoe: " + unavailable[0][2]
            ) from None
        fields = frozenset().union(*(bet.fields for bet, _ in walkable))
    else:
        walkable = priced
    # With replacement, the shoe in its lowest terms: the counts are those of the bets
    # alone (13^k sequences by rank), as punto banco states them.
    suits = request.suits if fields is request.fields else game.needs_suits(fields)
    walked = shoe.in_lowest_terms(suits=suits)
    # Each bet's table: the fields it reads (and the winner, for a multiplied bet: a rule
    # paying by the multiplier on a tie is refused).
    own = request.own if walkable is priced else [_own_fields(bet) for bet, _ in walkable]
    try:
        if walked is not shoe or walkable is not priced:  # (else checked above)
            check_deal_walk(game, walked, fields)
    except AnalyzerError:
        tables = {read: dealt_tables(game, walked, (read,))[read] for read in dict.fromkeys(own)}
    else:
        tables = dealt_tables(game, walked, own)
    results = evaluate_on_tables(
        (tables[read], bet, bet_mode) for read, (bet, bet_mode) in zip(own, walkable, strict=True)
    )
    return Analysis(
        paytable,
        shoe,
        modes,
        partial(_no_counts, paytable),
        tuple(results),
        tuple(unavailable),
    )


def _analyze_decided(
    paytable: Paytable, shoe: Shoe, modes: tuple[str, ...], bets: object, symbolic: bool
) -> Analysis:
    """The analysis of a punto banco paytable with a ``[decision]``: its bets solved per
    information set (:func:`~analyzer.analysis.decisions.best_play`), every other bet as
    the paytable without the decision prices it; the results in the paytable's order."""
    from analyzer.analysis.decisions import best_play  # (Numba)

    if not symbolic:
        check_known(paytable)
    offered = offered_bets(paytable, modes, bets)
    decided = [(bet, mode) for bet, mode in offered if bet.id in paytable.decided]
    played_by = {}
    choices = {}
    if decided:
        played, choices = best_play(paytable, shoe, decided)
        played_by = {(r.bet.id, r.mode): r for r in played}
    rest = [bet.id for bet, _ in offered if bet.id not in paytable.decided]
    unavailable: tuple = ()
    plain = replace(paytable, punto_banco_decision=None)
    counting = partial(stored_counts, shoe, "none", plain.mixture, _walked_counts)
    if rest:
        mode = modes[0] if len(modes) == 1 else None
        other = analyze(
            paytable=plain,
            shoe=shoe,
            mode=mode,
            bets=tuple(dict.fromkeys(rest)),
            symbolic=symbolic,
        )
        played_by |= {(r.bet.id, r.mode): r for r in other.results}
        unavailable, counting = other.unavailable, other.counting
    results = tuple(
        played_by[(bet.id, mode)] for bet, mode in offered if (bet.id, mode) in played_by
    )
    analysis = Analysis(paytable, shoe, modes, counting, results, unavailable)
    analysis.__dict__["choices"] = choices
    return analysis


def _no_counts(paytable: Paytable) -> OutcomeCounts:
    raise AnalyzerError(
        f"{paytable.source}: {paytable.game.name} has no punto banco counts (see the "
        "analysis' outcomes)"
    )


def _in_own_terms(result: BetResult, shoe: Shoe) -> BetResult:
    """A bet on a shoe dealt with replacement, counted in its own lowest terms: a bet
    that needs no suits over the shoe by rank (the infinite deck's 13^6 sequences),
    though the table it was settled on was dealt by suit for another bet (52^6)."""
    own = shoe.in_lowest_terms(suits=pricing(result.bet).needs_suits).size ** ROUND_CARDS
    line = result.lines[0]
    own *= line.scale
    # (over_fewer returns the result itself where it is already in those terms)
    return result if line.over % own else over_fewer(result, line.over // own)


def by_class_walk(analysis: Analysis, bet_ids: Iterable[str]) -> bool:
    """Were every one of ``bet_ids`` in ``analysis`` priced by the class walk (an
    analysis of them on another shoe then costs about a value walk)?"""
    wanted = set(bet_ids)
    request = _request(
        analysis.paytable, tuple(analysis.modes), None, analysis.shoe.suits_known, False
    )
    classed = [
        by_class
        for (bet, _), by_class in zip(request.offered, request.by_class, strict=True)
        if bet.id in wanted
    ]
    return bool(classed) and min(classed) >= 0


@record(eq=False)
class _Request:
    """What an analysis of some bets of a paytable in some modes needs whatever the shoe,
    but for whether its suits are known: the bets offered, how each is priced (and why
    not, if it cannot be), the detail of the counts, the identity walks, and the bets
    settled together on the counts. Each bet is priced as engine/pricing.py says: bets on
    the round's outcome share the counts of the value and pair enumerator, a bet on the
    cards themselves gets the card-level walk at the detail it needs, multiplied bets an
    identity walk."""

    paytable: Paytable
    offered: list[tuple[Bet, str]]
    mixture: Mixture
    plans: list[Pricing]
    why_not: list[str | None]
    detail: PairDetail
    walked_kinds: tuple[str, ...]
    cards: bool  # some bet is priced by a card walk (planned per shoe)
    on_the_table: list[bool]
    together: BetColumns
    #: The same bets settled apart (those on pairs alone in closed form, the others on the
    #: value walk), where none joins a pair with anything else; else None.
    apart: _Apart | None
    #: The class walks that settle bets on the cards, each some together, and the one of
    #: each bet (-1: none; the card walk settles it, or another engine).
    card_columns: list[CardColumns]
    by_class: list[int]

    @once
    def walked_bets(self) -> list[Bet]:
        """The bets no class walk settles (each card walk is planned for them)."""
        pairs = zip(self.offered, self.by_class, strict=True)
        return [bet for (bet, _), classed in pairs if classed < 0]

    @once
    def on_table(self) -> bool:
        """Is some bet, not settled with the others, settled on the counts' table (the
        counts are then worked out, whatever settles the others)?"""
        return any(
            why is None and classed < 0 and plan.engine != "cards" and plan.kind is None
            for plan, why, classed, together in zip(
                self.plans, self.why_not, self.by_class, self.on_the_table, strict=True
            )
            if not together
        )


#: Requests kept (a paytable is immutable: what is worked out of it stays true).
_MOST_REQUESTS = 32
_requests: Kept[_Request] = Kept(_MOST_REQUESTS)


def _request(
    paytable: Paytable, modes: tuple[str, ...], bets: object, suits_known: bool, symbolic: bool
) -> _Request:
    """The request of ``bets`` (None: all) of ``paytable`` in ``modes``, worked out or
    kept (a list of bet ids is kept by its ids; anything else is checked, not kept)."""
    kept = bets is None or (
        isinstance(bets, (list, tuple)) and all(type(bet_id) is str for bet_id in bets)
    )
    ids = tuple(bets) if kept and bets is not None else None
    key = (id(paytable), modes, ids, suits_known, symbolic)
    request = _requests.get(key) if kept else None
    if request is not None and request.paytable is paytable:  # (it holds the paytable)
        return request
    offered = offered_bets(paytable, modes, bets)
    if not symbolic:
        check_known(paytable)
    mixture = paytable.mixture  # before any work: undecided cells are one line
    plans = [pricing(bet) for bet, _ in offered]
    why_not = [plan.unavailable(suits_known) for plan in plans]
    on_the_table = [
        why is None and plan.engine not in ("cards", "identities") and not bet.multiplied
        for (bet, _), plan, why in zip(offered, plans, why_not, strict=True)
    ]
    on_cards = [
        why is None and plan.engine == "cards" and not bet.multiplied
        for (bet, _), plan, why in zip(offered, plans, why_not, strict=True)
    ]
    columns, by_class = _class_walks(offered, on_cards, mixture)
    together = [pair for pair, on_table in zip(offered, on_the_table, strict=True) if on_table]
    request = _Request(
        paytable,
        offered,
        mixture,
        plans,
        why_not,
        table_detail(plans, suits_known),
        tuple(
            dict.fromkeys(
                plan.kind
                for plan, why in zip(plans, why_not, strict=True)
                if plan.kind is not None and why is None
            )
        ),
        any(plan.engine == "cards" for plan in plans),
        on_the_table,
        BetColumns(together),
        _Apart.of(together, table_detail(plans, suits_known)),
        columns,
        by_class,
    )
    return _requests.put(key, request) if kept else request


class _Apart:
    """Bets on the round's outcome settled apart: those that read only the pair fields on
    the pair states' counts in closed form (:func:`~analyzer.engine.pairs.pair_ways`:
    a pair reads a hand's first two cards, not the draw), the others on the value walk's
    counts (no pair states), the results in the order of ``offered``, the same as
    on the joint counts. Only where no bet reads both a pair and anything else (such a
    bet needs the joint walk, and the others are then settled on it too)."""

    def __init__(self, offered: list[tuple[Bet, str]], detail: PairDetail) -> None:
        self.detail = detail
        self.on_pairs = [_on_pairs_alone(bet) for bet, _ in offered]
        pairs = [pair for pair, alone in zip(offered, self.on_pairs, strict=True) if alone]
        self.pairs = BetColumns(pairs)
        self.values = BetColumns(
            [pair for pair, alone in zip(offered, self.on_pairs, strict=True) if not alone]
        )
        # How the pair bets settle each of the nine pair states (worked out once).
        player_state, banker_state = np.divmod(np.arange(N_PAIR_STATES**2), N_PAIR_STATES)
        columns = pair_columns(player_state, banker_state, detail)
        self.settlement, self.group = settle_rows(
            [bet for bet, _ in pairs], columns, N_PAIR_STATES**2
        )
        # Each pair state's rows of totals (0/1, int64: a total is a sum of states' ways,
        # at most the denominator), where the settlement keeps its groups' matrix.
        matrix = self.settlement.group_rows()
        self._rows = None if matrix is None else matrix[self.group]

    @classmethod
    def of(cls, offered: list[tuple[Bet, str]], detail: PairDetail) -> _Apart | None:
        """The bets of ``offered`` apart, or None where that is no quicker (no bet on pairs
        alone) or not possible (a bet reading a pair and another field)."""
        if detail == "none" or not any(_on_pairs_alone(bet) for bet, _ in offered):
            return None
        if any(
            not _on_pairs_alone(bet) and pair_detail_needed(bet.fields) != "none"
            for bet, _ in offered
        ):
            return None
        return cls(offered, detail)

    def evaluate(self, shoe: Shoe, mixture: Mixture) -> list[BetResult]:
        """Every bet's result on ``shoe`` (dealt without replacement) under ``mixture``."""
        values = iter(
            self.values.evaluate(stored_counts(shoe, "none", mixture, _walked_counts))
            if self.values.offered
            else ()
        )
        ways, denominator, scale = pair_ways(shoe, self.detail, mixture)
        if ways.dtype != object and self._rows is not None:  # one product: state to rows
            totals = (ways @ self._rows).tolist()
        else:
            by_group = np.zeros(self.settlement.n_groups, dtype=ways.dtype)  # (Python 0s)
            np.add.at(by_group, self.group, ways)
            totals = self.settlement.totals(by_group)
        pairs = iter(self.pairs.results(self.settlement, totals, denominator, scale))
        return [next(pairs) if alone else next(values) for alone in self.on_pairs]


def _on_pairs_alone(bet: Bet) -> bool:
    """Does ``bet`` read the pair fields and nothing else?"""
    return bool(bet.fields) and all(name in _PAIR_FIELDS for name in bet.fields)


_PAIR_FIELDS = frozenset(PAIR_FIELDS + SUITED_PAIR_FIELDS)


def _class_walks(
    offered: list[tuple[Bet, str]], on_cards: list[bool], mixture: Mixture
) -> tuple[list[CardColumns], list[int]]:
    """The class walks that settle the bets on the cards (``on_cards``) of ``offered``, and
    each bet's (-1: none): one walk for all of them (those on suits, and the others) where
    it counts them, else one for each set of bets asking the same fields, else the card
    walk."""
    by_class = [-1] * len(offered)
    if not any(on_cards):
        return [], by_class
    # Bets on suits apart from the others: on a shoe dealt with replacement each counts
    # in its own lowest terms (the 13 ranks, or the 52 cards), as the card walk does.
    by_suits: dict[bool, list[int]] = {}
    for i, cards in enumerate(on_cards):
        if cards:
            by_suits.setdefault(pricing(offered[i][0]).needs_suits, []).append(i)
    groups, walks = [], []
    for wanted in by_suits.values():
        together = _class_walk([offered[i] for i in wanted], mixture)
        if together is not None:
            groups.append(wanted)
            walks.append(together)
            continue
        by_fields: dict[frozenset[str], list[int]] = {}
        for i in wanted:
            by_fields.setdefault(offered[i][0].fields, []).append(i)
        groups += by_fields.values()
        walks += [_class_walk([offered[i] for i in g], mixture) for g in by_fields.values()]
    columns = []
    for group, walk in zip(groups, walks, strict=True):
        if walk is not None:
            for i in group:
                by_class[i] = len(columns)
            columns.append(walk)
    return columns, by_class


def _class_walk(offered: list[tuple[Bet, str]], mixture: Mixture) -> CardColumns | None:
    """The class walk of every field the bets of ``offered`` ask (a text field told apart
    only by the constants every bet asking it names, suits as they are), or None where it
    does not count them."""
    from analyzer.analysis.card_columns import card_columns  # (compiled code: imported here)

    bets = [bet for bet, _ in offered]
    fields = frozenset().union(*(bet.fields for bet in bets))
    literals = shared_literals(bets)
    # (Suits compared only with each other are told apart as they are: the class walk
    # sorts the keys they make into few classes without counting suits by pattern.)
    return card_columns(offered, fields, literals, frozenset(), mixture)
