"""The Python entry point: analyse every bet of a paytable on a shoe, exactly."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from analyzer.analysis.bets import BetResult, evaluate_bet
from analyzer.analysis.budget import FEWER_CARD_BETS, card_walks, check_visits, walked
from analyzer.analysis.columns import evaluate_bets
from analyzer.engine.counts import OutcomeCounts, stored_counts
from analyzer.engine.outcomes import OutcomeTable, identity_tables, outcome_table
from analyzer.engine.pricing import Pricing, pricing, table_detail
from analyzer.errors import AnalyzerError
from analyzer.game.fields import PairDetail
from analyzer.game.rules import Mixture
from analyzer.game.shoe import Shoe
from analyzer.paytables.library import seed_paytable
from analyzer.paytables.model import Bet, Paytable, resolve_modes
from analyzer.paytables.printed import printed_value
from analyzer.schema import argument, sequence_of

if TYPE_CHECKING:  # (pandas is imported where a frame is made: a report needs none)
    import pandas as pd


class NothingComputable(AnalyzerError):
    """No bet asked for can be priced exactly on the shoe (suits unknown, or bets on the
    cards on an infinite deck): one line for a command, a claim left unchecked by verify."""


class UnknownsLeft(NothingComputable):
    """The paytable's multipliers have unknowns, and no values were given for them."""


def check_known(paytable: Paytable) -> None:
    """Refuse, in one line, a paytable whose multipliers still have unknowns."""
    if paytable.unknowns:
        names = ", ".join(name for name, _, _ in paytable.unknowns)
        raise UnknownsLeft(
            f"{paytable.source}: the multipliers' distribution has unknowns ({names}): give "
            "them values with --unknowns NAME=VALUE (report, eor, simulate), or find what "
            "published figures allow with 'baccarat-odds fit'"
        )


#: Decimals of the maximum RTP in an analysis' repr.
MAX_RTP_DIGITS = 4

SUMMARY_COLUMNS = [
    "name",
    "mode",
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


@dataclass(frozen=True, eq=False)
class Analysis:
    """Every requested (bet, mode) on one shoe.

    ``summary`` is indexed by bet (by bet and mode when several modes were asked for);
    exact columns hold :class:`~fractions.Fraction`, ``*_percent`` and ``std_dev`` floats.
    """

    paytable: Paytable
    shoe: Shoe
    modes: tuple[str, ...]
    #: The enumerator's counts the bets on the round's outcome were settled on.
    counts: OutcomeCounts
    results: tuple[BetResult, ...]
    #: (bet id, mode, why) of the bets this shoe cannot price exactly (suits unknown).
    unavailable: tuple[tuple[str, str, str], ...] = ()

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
        if self.results:
            best = self.best()
            parts.append(
                f"max RTP {printed_value(best.rtp, MAX_RTP_DIGITS)} ({best.bet.id}, {best.mode})"
            )
        return f"<Analysis of {'; '.join(parts)}>"

    @cached_property
    def outcomes(self) -> OutcomeTable:
        """The counts as a table: a row per outcome cell the shoe reaches (made when
        asked for: the bets were settled on the counts themselves)."""
        return outcome_table(self.counts)

    @property
    def summary(self) -> pd.DataFrame:
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
        frame = pd.DataFrame(rows, columns=["bet", *SUMMARY_COLUMNS])
        frame["max_round"] = frame["max_round"].astype("Int64")
        index = ["bet"] if len(self.modes) == 1 else ["bet", "mode"]
        return frame.set_index(index)

    def result(self, bet: str, mode: str | None = None) -> BetResult:
        argument(bet, str, "bet", " (a bet id)")
        argument(mode, (str, type(None)), "mode", " (a mode name)")
        for r in self.results:
            if r.bet.id == bet and (mode is None or r.mode == mode):
                return r
        raise AnalyzerError(f"no result for bet {bet!r}" + (f" in mode {mode!r}" if mode else ""))

    def breakdown(self, bet: str, mode: str | None = None) -> pd.DataFrame:
        return self.result(bet, mode).breakdown

    def best(self) -> BetResult:
        """The bet with the highest RTP (the game's "maximum RTP")."""
        return max(self.results, key=lambda r: r.rtp)

    @property
    def max_rtp(self) -> Fraction:
        return self.best().rtp

    def warnings(self) -> list[str]:
        """Rules that settle no round of this shoe: a typo in a condition, or dead code."""
        out = []
        for r in self.results:
            for number, line in enumerate(r.lines[:-1], 1):
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
    paytable: Paytable | None = None,
    shoe: Shoe | None = None,
    *,
    symbolic: bool = False,
) -> Analysis:
    """Exact house edge of every bet (or ``bets``) of ``paytable`` (default: the seed game).

    The shoe is ``shoe`` if given, else ``decks`` full decks (default: the paytable's).
    A paytable whose multipliers have unknowns is analysed only ``symbolic``: its
    multiplied bets' figures are then polynomials in the unknowns
    (:class:`~analyzer.paytables.unknowns.Poly`), as :mod:`analyzer.analysis.fit` solves them.
    """
    paytable = seed_paytable() if paytable is None else paytable
    if not isinstance(paytable, Paytable):
        raise AnalyzerError(f"paytable must be a Paytable (see load_paytable), got {paytable!r}")
    if shoe is None:
        shoe = Shoe.standard(paytable.decks if decks is None else decks)
    elif not isinstance(shoe, Shoe):
        raise AnalyzerError(f"shoe must be a Shoe, got {type(shoe).__name__}")
    elif decks is not None:
        raise AnalyzerError("give decks or shoe, not both")
    modes = resolve_modes(paytable, mode)
    offered = offered_bets(paytable, modes, bets)
    # Each bet is priced as engine/pricing.py says: bets on the round's outcome share one
    # table from the value and pair enumerator, a bet on the cards themselves gets the
    # card-level walk at the detail it needs, multiplied bets one identity walk.
    # Every card walk is planned, and the lot checked against the budget, before any work.
    if not symbolic:
        check_known(paytable)
    mixture = paytable.mixture  # before any work: undecided cells are one line
    walks = card_walks((bet for bet, _ in offered), shoe, mixture)
    check_visits(walked(walks), "the exact analysis", FEWER_CARD_BETS)
    plans = [pricing(bet) for bet, _ in offered]
    detail = table_detail(plans, shoe.suits_known)
    counts = stored_counts(shoe, detail, mixture, _walked_counts)
    table: OutcomeTable | None = None  # made where a bet needs its rows (few do)
    walked_kinds = tuple(
        dict.fromkeys(
            plan.kind
            for plan in plans
            if plan.kind is not None and not plan.unavailable(shoe.suits_known)
        )
    )
    by_identities: dict[str, OutcomeTable] = {}
    if walked_kinds:  # one identity walk for every kind the priced bets use
        from analyzer.engine.identities import identity_outcomes_of

        by_kind = identity_outcomes_of(shoe, walked_kinds, mixture)
        by_identities = identity_tables(by_kind)
    # The fixed-payout bets on the round's outcome are settled together (columns.py).
    together = [
        (bet, bet_mode)
        for (bet, bet_mode), plan in zip(offered, plans, strict=True)
        if _on_the_table(bet, plan, shoe)
    ]
    settled = iter(evaluate_bets(counts, together) if together else ())
    results, unavailable = [], []
    for (bet, bet_mode), plan in zip(offered, plans, strict=True):
        why = plan.unavailable(shoe.suits_known)
        if why is not None:
            unavailable.append((bet.id, bet_mode, why))
        elif plan.engine == "cards":
            results.append(evaluate_bet(walks[plan.walk].table(), bet, bet_mode))
        elif plan.kind is not None:
            results.append(evaluate_bet(by_identities[plan.kind], bet, bet_mode))
        elif _on_the_table(bet, plan, shoe):
            results.append(next(settled))
        else:  # multiplied by a hand's first two cards: their pattern is a field of the row
            table = outcome_table(counts) if table is None else table
            results.append(evaluate_bet(table, bet, bet_mode))
    if not results:
        raise NothingComputable("no bet can be computed exactly on this shoe: " + unavailable[0][2])
    return Analysis(paytable, shoe, modes, counts, tuple(results), tuple(unavailable))


def _on_the_table(bet: Bet, plan: Pricing, shoe: Shoe) -> bool:
    """Whether a bet is one of those settled together on the enumerator's counts."""
    return (
        plan.engine not in ("cards", "identities")
        and not bet.multiplied
        and plan.unavailable(shoe.suits_known) is None
    )
