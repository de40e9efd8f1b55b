"""Card counting against many bets at once, round by round, with and without the
max-round limits, and the gain for every possible max round.

For every round of every dealt shoe the exact expected value of each bet on the cards that
remain is known: punto banco's by the batch engine (:mod:`analyzer.engine.batch`), a game
dealt once by its own (:mod:`analyzer.engine.game_batch`), its shoes dealt by
:mod:`analyzer.runs.game_dealer`. A *linear count* sums tags of the cards the counter has
seen (the shown burn card and every card of earlier rounds; burned cards stay hidden) and
bets one unit when the true count (running count per deck left: of the cards in the shoe,
or of every card not seen) reaches a threshold; *perfect play* bets exactly when the EV is
positive. Gains are expected values, not sampled outcomes, so the estimates carry only the
variance of the shoes.
"""

from __future__ import annotations

import functools
import operator
import re
from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from analyzer.analysis.solved import solved_values
from analyzer.engine.batch import dealt_expected_values
from analyzer.errors import AnalyzerError
from analyzer.game.cards import CARD_RANKS, N_RANKS, RANKS, parse_rank
from analyzer.paytables.model import Bet, Paytable
from analyzer.runs import TRUE_COUNT_DECKS
from analyzer.runs.dealer import (
    Drawing,
    Procedure,
    compositions_at,
    compositions_at_starts,
    deal_shoe,
    join_rounds,
    shuffled_shoe,
)
from analyzer.runs.game_dealer import deal_game_shoes, kept_game_batch, shuffled_game_shoes
from analyzer.runs.runner import Result, partition_rng
from analyzer.runs.solved_rounds import deal_solved_shoe
from analyzer.runs.stats import ratio_and_error

#: The headline figures: the max-round limit applied, and not.
STRATEGIES = ("with_limit", "without_limit")
#: Perfect play bets a round whose EV is above this. The EVs are floats a few 1e-15 from
#: the exact ones, so a round whose exact EV is 0 (Dragon Tiger's Red with as many red
#: cards left as black) must not read as worth a bet; an exact EV this small that is not 0
#: gains less than any figure shows.
POSITIVE_EV = 1e-12


def parse_tags(text: str, limit: int = 1000) -> np.ndarray:
    """``"A=0,2=1,...,K=-1"`` -> tag per rank (ranks not named count 0).

    Each rank is tagged once (``10`` and ``T`` are one rank) with a whole number of at
    most ``limit`` in size, so a running count over a whole shoe stays far inside int64.
    """
    tags = np.zeros(N_RANKS, dtype=np.int64)
    named: dict[int, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        rank_text, sep, value = item.partition("=")
        if not sep:
            raise AnalyzerError(f"bad tag {item!r}: write RANK=INTEGER, e.g. 5=-2")
        try:
            rank = parse_rank(rank_text)
        except AnalyzerError as exc:
            raise AnalyzerError(f"bad tag {item!r}: {exc}") from None
        if rank in named:
            raise AnalyzerError(f"bad tag {item!r}: rank {RANKS[rank]} is already tagged")
        value = value.strip()
        if not re.fullmatch(r"[+-]?[0-9]{1,12}", value):
            raise AnalyzerError(f"bad tag {item!r}: {value[:20]!r} is not an integer")
        if abs(int(value)) > limit:
            raise AnalyzerError(f"bad tag {item!r}: a tag is at most {limit} in size")
        named[rank] = item
        tags[rank] = int(value)
    return tags


@dataclass(frozen=True)
class CountJob:
    """A counting run against the (bet, mode) ``columns`` of ``paytable``: shoes dealt by
    ``procedure``. Every column is bet by perfect play (bet when the exact EV is
    positive); with ``tags`` (13 per rank, or None for a column no linear count helps)
    and ``thresholds``, also by a linear count, which is then the headline strategy."""

    paytable: Paytable
    columns: tuple[tuple[str, str], ...]
    procedure: Procedure
    seed: int
    tags: tuple[tuple[int, ...] | None, ...] | None = None
    thresholds: tuple[float | None, ...] | None = None
    #: The true count's divisor, in decks: the cards still in the shoe ("in-shoe"), or
    #: every card the counter has not seen, face-down burn cards included ("unseen").
    true_count_decks: str = "in-shoe"

    def __post_init__(self) -> None:
        for given in (self.tags, self.thresholds):
            if given is not None and len(given) != len(self.columns):
                raise AnalyzerError("a count needs one tag set and threshold per column")
        if self.true_count_decks not in TRUE_COUNT_DECKS:
            raise AnalyzerError(
                f"unknown true-count divisor {self.true_count_decks!r} "
                f"(divisors: {', '.join(TRUE_COUNT_DECKS)})"
            )

    @property
    def plays(self) -> tuple[str, ...]:
        """The ways of betting counted: perfect play, and the linear count if tagged."""
        return PLAYS if self.tags is not None else PLAYS[:1]

    def headline_of(self, column: int) -> str:
        """The play a column's with/without-limit figures, gain by max round and per-round
        table follow: its linear count, or perfect play for a column no linear count helps
        (no tags)."""
        if self.tags is None or self.tags[column] is None:
            return "perfect"
        return "count"

    @property
    def n_columns(self) -> int:
        """The (bet, mode) columns of a partition's per-shoe results."""
        return len(self.columns)

    @property
    def bets(self) -> list[Bet]:
        return [self.paytable.bet(bet_id, mode) for bet_id, mode in self.columns]

    @property
    def round_cards(self) -> int:
        """The fewest cards a round takes: punto banco's four, or a game's first deal."""
        game = self.paytable.game
        return 4 if game is None else game.cards

    @property
    def by_round(self) -> int:
        """Length of the per-round arrays: index = round number (0 unused)."""
        return self.procedure.cards // self.round_cards + 2

    def partition_bytes(self, shoes: int) -> int:
        """About the most memory a partition of ``shoes`` shoes takes while it is counted:
        per round dealt and column, the EV and what each play bets and gains (float64 and
        bool arrays, some 32 bytes); per shoe, cap and column, a play's capped gains and
        their squares (24 bytes). Counting 2,200 bets on 250 shoes of 353 rounds took
        8.7 GB; this says 10.9 GB."""
        return shoes * self.by_round * self.n_columns * (32 + 24)

    @property
    def identity(self) -> dict[str, Any]:
        """Everything the result depends on (saved partitions are matched against it)."""
        return {
            "command": "count",
            "paytable": self.paytable.fingerprint,
            "columns": [list(column) for column in self.columns],
            "procedure": asdict(self.procedure),
            "seed": self.seed,
            "tags": None if self.tags is None else [t and list(t) for t in self.tags],
            "thresholds": None if self.thresholds is None else list(self.thresholds),
            "true_count_decks": self.true_count_decks,
        }

    def check(self, result: Result, shoes: int) -> None:
        """Raise ``ValueError`` unless ``result`` has the keys, shapes and dtypes that
        :func:`count_partition` gives for ``shoes`` shoes (a saved file is checked before
        it is trusted)."""
        n_columns, rounds = len(self.columns), self.by_round
        shapes = {"rounds": ((shoes,), np.int64), "round_count": ((rounds,), np.float64)}
        for name in STRATEGIES:
            for what in ("bets", "gain"):
                shapes[f"{name}_{what}"] = ((shoes, n_columns), np.float64)
        for key in ROUND_SUMS:
            shapes[key] = ((rounds, n_columns), np.float64)
        for play in self.plays:
            for what in CAP_ARRAYS:
                shapes[f"cap_{play}_{what}"] = ((rounds, n_columns), np.float64)
        if set(result) != set(shapes):
            raise ValueError(f"keys {sorted(result)}, expected {sorted(shapes)}")
        for key, (shape, dtype) in shapes.items():
            if result[key].dtype != dtype or result[key].shape != shape:
                raise ValueError(f"{key}: {result[key].dtype} {result[key].shape}")


#: The ways of betting a count compares: perfect play and a linear count.
PLAYS = ("perfect", "count")
#: Per round number and column, sums over the shoes reaching it: the EV, its square (for
#: the EV's standard error), the rounds with a positive EV, and the rounds bet.
ROUND_SUMS = ("round_ev", "round_ev_sq", "round_positive", "round_bets")
#: Per play, per cap (max round) and column: the sum over shoes of the gain per shoe,
#: of its square, and the bets placed.
CAP_ARRAYS = ("gain", "gain_sq", "bets")


def _sum_by(index: np.ndarray, values: np.ndarray, length: int) -> np.ndarray:
    """Sums of the rows of ``values`` (n, columns) by ``index`` (n,), (length, columns)."""
    n_columns = values.shape[1]
    flat = (index[:, None] * n_columns + np.arange(n_columns)).ravel()
    sums = np.bincount(
        flat, weights=values.ravel().astype(np.float64), minlength=length * n_columns
    )
    return sums.reshape(length, n_columns)


#: Shoes counted at once: their rounds' compositions, EVs and per-round gains stay small
#: enough to be reused from the cache rather than paged in afresh.
_SHOE_CHUNK = 256
#: Result arrays with one row per shoe (joined across chunks); the rest are sums.
_PER_SHOE = ("rounds", *(f"{name}_{what}" for name in STRATEGIES for what in ("bets", "gain")))


def count_partition(job: CountJob, index: int, shoes: int) -> Result:
    """Deal ``shoes`` shoes and record, per shoe and per round number, what each play bets
    and expects on every column."""
    rng = partition_rng(job.seed, index)
    chunks = [
        _count_shoes(job, rng, min(_SHOE_CHUNK, shoes - first))
        for first in range(0, shoes, _SHOE_CHUNK)
    ]
    joined: Result = {}
    for key in chunks[0]:
        if key in _PER_SHOE:
            joined[key] = np.concatenate([chunk[key] for chunk in chunks])
        else:
            joined[key] = functools.reduce(operator.add, (chunk[key] for chunk in chunks))
    return joined


@dataclass(frozen=True, eq=False)
class _Dealt:
    """The rounds of a block of shoes as a count reads them, one row a round, shoe after
    shoe: its ``shoe`` (from 0 in the block), ``number`` (from 1) and ``start`` (its first
    card's place in its shoe); ``ev``, every column's exact EV on the cards left; with
    tags, ``seen`` (each column's running count) and ``unseen`` (the cards the counter
    has not seen)."""

    shoe: np.ndarray
    number: np.ndarray
    start: np.ndarray
    ev: np.ndarray
    seen: np.ndarray | None
    unseen: np.ndarray | None


def _tags_of_cards(job: CountJob) -> np.ndarray | None:
    """(52, columns): each card's tag in each column's linear count (None: no count)."""
    if job.tags is None:
        return None
    tags = np.array([t or (0,) * N_RANKS for t in job.tags], dtype=np.int64).T
    return tags[CARD_RANKS]


def _seen(
    tag_of_card: np.ndarray, cards: np.ndarray, first: int, starts: np.ndarray, burn: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Of a shoe (``cards``, round 1 starting at card ``first``) and its rounds starting
    at ``starts``: each round's running count (the shown first card, then every card of
    the rounds before it; the burned cards stay hidden) and the cards not seen (the cards
    in the shoe, and the burn cards dealt face down)."""
    n_columns = tag_of_card.shape[1]
    running = np.concatenate([np.zeros((1, n_columns), np.int64), tag_of_card[cards]])
    running = np.cumsum(running, axis=0)
    shown = tag_of_card[cards[0]] if burn else 0
    seen = shown + running[starts] - running[first]
    return seen, len(cards) - (1 if burn else 0) - (starts - first)


def _deal_punto_banco(job: CountJob, rng: np.random.Generator, shoes: int) -> _Dealt:
    """The next ``shoes`` punto banco shoes ``rng`` deals, each round's EVs by the batch
    engine."""
    procedure = job.procedure
    tag_of_card = _tags_of_cards(job)
    compositions, records, seen, unseen, shoe_of_round = [], [], [], [], []
    rules, strategy = job.paytable.rules, job.paytable.strategy
    drawing = Drawing.of(rules, strategy)
    for shoe in range(shoes):
        cards = shuffled_shoe(rng, procedure.decks)
        rounds = deal_shoe(cards, procedure, drawing, rng)
        starts = rounds["start"]
        compositions.append(compositions_at(cards, rounds, procedure.decks))
        records.append(rounds)
        shoe_of_round.append(np.full(len(rounds), shoe))
        if tag_of_card is not None:
            counted = _seen(tag_of_card, cards, int(starts[0]), starts, procedure.burn)
            seen.append(counted[0])
            unseen.append(counted[1])
    records = join_rounds(records)
    if job.paytable.punto_banco_decision is not None:  # each round's play solved on its cards
        ev = solved_values(job.paytable, job.columns, np.concatenate(compositions))
    else:
        ev = dealt_expected_values(job.bets, np.concatenate(compositions), rules, strategy)
    return _Dealt(
        np.concatenate(shoe_of_round),
        records["round"],
        records["start"],
        ev,
        np.concatenate(seen) if tag_of_card is not None else None,
        np.concatenate(unseen) if tag_of_card is not None else None,
    )


def _deal_game(job: CountJob, rng: np.random.Generator, shoes: int) -> _Dealt:
    """The next ``shoes`` shoes of a game dealt once (:mod:`analyzer.runs.game_dealer`:
    shuffled, burned and cut as punto banco's) from ``rng``, each round's EVs by the
    game's batch engine (:mod:`analyzer.engine.game_batch`)."""
    procedure, game = job.procedure, job.paytable.game
    tag_of_card = _tags_of_cards(job)
    dealt = deal_game_shoes(rng, shoes, procedure, game)
    rounds = dealt.rounds()
    start = dealt.starts[rounds.shoe] + (rounds.number - 1) * game.cards
    by_shoe = np.split(start, np.cumsum(dealt.n_rounds)[:-1])
    compositions, seen, unseen = [], [], []
    for shoe, starts in enumerate(by_shoe):
        cards = dealt.cards[shoe]
        compositions.append(compositions_at_starts(cards, starts, procedure.decks))
        if tag_of_card is not None:
            counted = _seen(tag_of_card, cards, int(dealt.starts[shoe]), starts, procedure.burn)
            seen.append(counted[0])
            unseen.append(counted[1])
    ev = kept_game_batch(job.paytable, job.columns, job.bets).expected_values(
        np.concatenate(compositions)
    )
    return _Dealt(
        rounds.shoe,
        rounds.number,
        start,
        ev,
        np.concatenate(seen) if tag_of_card is not None else None,
        np.concatenate(unseen) if tag_of_card is not None else None,
    )


def _deal_solved_game(job: CountJob, rng: np.random.Generator, shoes: int) -> _Dealt:
    """The next ``shoes`` shoes of a game whose hands draw or decide (shuffled and burned
    as a game dealt once), dealt round by round, each round played and priced by the
    best play solved on its cards (:mod:`analyzer.runs.solved_rounds`)."""
    procedure = job.procedure
    tag_of_card = _tags_of_cards(job)
    cards, first = shuffled_game_shoes(rng, shoes, procedure)
    counts = np.full(52, procedure.decks, dtype=np.int64)
    cut = procedure.cards - procedure.cut_card
    one_more = procedure.last_round == "one-more"
    shoe_of_round, number, start, evs, seen, unseen = [], [], [], [], [], []
    for shoe in range(shoes):
        starts, ev = deal_solved_shoe(
            job.paytable, job.columns, cards[shoe], int(first[shoe]), cut, one_more, counts
        )
        shoe_of_round.append(np.full(len(starts), shoe))
        number.append(np.arange(1, len(starts) + 1))
        start.append(starts)
        evs.append(ev)
        if tag_of_card is not None:
            counted = _seen(tag_of_card, cards[shoe], int(first[shoe]), starts, procedure.burn)
            seen.append(counted[0])
            unseen.append(counted[1])
    return _Dealt(
        np.concatenate(shoe_of_round),
        np.concatenate(number),
        np.concatenate(start),
        np.concatenate(evs),
        np.concatenate(seen) if tag_of_card is not None else None,
        np.concatenate(unseen) if tag_of_card is not None else None,
    )


def _count_shoes(job: CountJob, rng: np.random.Generator, shoes: int) -> Result:
    """:func:`count_partition` of the next ``shoes`` shoes ``rng`` deals."""
    if job.paytable.game is None:
        dealt = _deal_punto_banco(job, rng, shoes)
    elif job.paytable.game.by_values:
        dealt = _deal_solved_game(job, rng, shoes)
    else:
        dealt = _deal_game(job, rng, shoes)
    procedure = job.procedure
    n_columns = len(job.columns)
    shoe_of_round, ev = dealt.shoe, dealt.ev
    positive = ev > POSITIVE_EV
    wants = {"perfect": positive}
    if dealt.seen is not None:
        if job.true_count_decks == "unseen":
            decks_left = dealt.unseen / 52
        else:
            decks_left = (procedure.cards - dealt.start) / 52
        true_count = dealt.seen / decks_left[:, None]
        thresholds = np.array([np.inf if t is None else t for t in job.thresholds])
        wants["count"] = true_count >= thresholds
    headline = np.stack([wants[job.headline_of(c)][:, c] for c in range(n_columns)], axis=1)
    round_number = dealt.number
    limits = np.array([bet.max_round or np.iinfo(np.int64).max for bet in job.bets])
    result: Result = {"rounds": np.bincount(shoe_of_round, minlength=shoes).astype(np.int64)}
    for name, bets in (
        ("with_limit", headline & (round_number[:, None] <= limits)),
        ("without_limit", headline),
    ):
        result[f"{name}_bets"] = _sum_by(shoe_of_round, bets, shoes)
        result[f"{name}_gain"] = _sum_by(shoe_of_round, ev * bets, shoes)
    by_round = job.by_round
    result["round_count"] = np.bincount(round_number, minlength=by_round).astype(np.float64)
    result["round_ev"] = _sum_by(round_number, ev, by_round)
    result["round_ev_sq"] = _sum_by(round_number, ev**2, by_round)
    result["round_positive"] = _sum_by(round_number, positive, by_round)
    result["round_bets"] = _sum_by(round_number, headline, by_round)
    for play, bets in wants.items():
        result |= _cap_sums(play, shoe_of_round, round_number, ev * bets, bets, shoes, by_round)
    return result


def _cap_sums(
    play: str,
    shoe_of_round: np.ndarray,
    round_number: np.ndarray,
    gain: np.ndarray,
    bets: np.ndarray,
    shoes: int,
    by_round: int,
) -> Result:
    """Per cap k (rounds 1 to k on offer) and column: the sum over shoes of each shoe's
    gain, of its square, and the bets placed."""
    per_shoe = np.zeros((shoes, by_round, gain.shape[1]))
    # A shoe deals each round number once: plain assignment, no accumulation.
    per_shoe[shoe_of_round, round_number] = gain
    capped = np.cumsum(per_shoe, axis=1)  # each shoe's gain with the cap at each round
    return {
        f"cap_{play}_gain": capped.sum(axis=0),
        f"cap_{play}_gain_sq": (capped**2).sum(axis=0),
        f"cap_{play}_bets": np.cumsum(_sum_by(round_number, bets, by_round), axis=0),
    }


def count_summary(job: CountJob, results: list[Result], max_gain: float) -> list[dict[str, Any]]:
    """Per column: bet frequency, edge when betting, units per shoe and per 100 rounds
    with and without the limit, each with its standard error over shoes; the gain per
    shoe by max round of the headline play (``by_max_round``) and of each play
    (``curves``); and each play's max-round advice (see :func:`advise`)."""
    rounds = np.concatenate([r["rounds"] for r in results]).astype(np.float64)
    shoes = len(rounds)
    round_count = sum(r["round_count"] for r in results)
    played = np.nonzero(round_count)[0]
    last_round = int(played[-1]) if len(played) else 0
    rounds_by_cap = np.cumsum(round_count)
    out = []
    for c, ((bet_id, mode), bet) in enumerate(zip(job.columns, job.bets, strict=True)):
        column: dict[str, Any] = {
            "bet": bet_id,
            "mode": mode,
            "max_round": bet.max_round,
            "shoes": shoes,
            "rounds_per_shoe": float(rounds.mean()),
            "last_round": last_round,
        }
        for name in STRATEGIES:
            bets = np.concatenate([r[f"{name}_bets"][:, c] for r in results])
            gain = np.concatenate([r[f"{name}_gain"][:, c] for r in results])
            column[name] = _strategy_figures(bets, gain, rounds)
        curves = {}
        for play in job.plays:
            sums = {
                what: sum(r[f"cap_{play}_{what}"][:, c] for r in results) for what in CAP_ARRAYS
            }
            curves[play] = _by_max_round(sums, rounds_by_cap, shoes, last_round)
        column["by_max_round"] = curves[job.headline_of(c)]
        column["advice"] = {
            play: advise(curve, max_gain, bet.max_round)
            for play, curve in curves.items()
            if play == "perfect" or job.tags[c] is not None
        }
        column["curves"] = curves
        out.append(column)
    return out


def _strategy_figures(bets: np.ndarray, gain: np.ndarray, rounds: np.ndarray) -> dict[str, Any]:
    shoes = len(rounds)
    frequency, frequency_error = ratio_and_error(bets, rounds)
    edge, edge_error = ratio_and_error(gain, bets)
    per_100, per_100_error = ratio_and_error(100 * gain, rounds)
    return {
        "bet_frequency": frequency,
        "bet_frequency_se": frequency_error,
        "edge_when_bet": edge,
        "edge_when_bet_se": edge_error,
        "units_per_shoe": float(gain.mean()),
        "units_per_shoe_se": float(gain.std(ddof=1) / np.sqrt(shoes)) if shoes > 1 else None,
        "units_per_100_rounds": per_100,
        "units_per_100_rounds_se": per_100_error,
    }


#: What :func:`counter_figures` adds to a play's figures (with and without the limit).
COUNTER_FIGURES = ("sd_per_round", "di", "di_se", "n0", "win_per_hour", "sd_per_hour")


def counter_figures(
    figures: dict[str, Any], second_moment: float, rounds_per_hour: float | None = None
) -> dict[str, float | None]:
    """The figures the counting literature rates a count by, per round dealt (every round
    the counter watches, bet or not; a bet is one unit paid), from a play's
    ``figures`` (:func:`count_summary`'s: its bet frequency ``f`` and units per 100
    rounds) and the bet's ``second_moment`` per unit paid, ``E[X^2]`` off the top:

    * win rate ``w``: units per 100 rounds / 100;
    * ``sd_per_round``: ``sqrt(f * E[X^2] - w^2)``, the standard deviation of one round's
      result (0 unbet, the bet's result when bet; its second moment taken off the top,
      as the literature takes one per hand);
    * ``di``, the desirability index: ``1000 * w / sd`` (``di_se``: its standard error
      from the win rate's, the sd taken as known);
    * ``n0``: ``(sd / w)^2``, the rounds after which the expected win equals one standard
      deviation of the result (None where ``w`` is not positive: never);
    * ``win_per_hour`` and ``sd_per_hour`` at ``rounds_per_hour`` rounds dealt an hour:
      ``R * w`` and ``sqrt(R) * sd`` (None without it).

    A play that never bets has no sd, DI or N0 (None)."""
    frequency = figures["bet_frequency"]
    per_100, per_100_se = figures["units_per_100_rounds"], figures["units_per_100_rounds_se"]
    out: dict[str, float | None] = dict.fromkeys(COUNTER_FIGURES)
    if frequency is None or per_100 is None or np.isnan(frequency) or np.isnan(per_100):
        return out
    win = per_100 / 100
    variance = frequency * second_moment - win**2
    if variance <= 0:  # never bet (or nothing to lose)
        return out
    sd = float(np.sqrt(variance))
    out["sd_per_round"] = sd
    out["di"] = 1000 * win / sd
    if per_100_se is not None and not np.isnan(per_100_se):
        out["di_se"] = 1000 * (per_100_se / 100) / sd
    out["n0"] = (sd / win) ** 2 if win > 0 else None
    if rounds_per_hour is not None:
        out["win_per_hour"] = rounds_per_hour * win
        out["sd_per_hour"] = float(np.sqrt(rounds_per_hour)) * sd
    return out


def _by_max_round(
    sums: dict[str, np.ndarray], rounds_by_cap: np.ndarray, shoes: int, last_round: int
) -> list[dict[str, Any]]:
    """Units per shoe (with its standard error over shoes) and bet frequency with the
    max round at each k from 1 to the last round dealt."""
    out = []
    for k in range(1, last_round + 1):
        mean = sums["gain"][k] / shoes
        error = None
        if shoes > 1:
            variance = max(0.0, (sums["gain_sq"][k] - shoes * mean**2) / (shoes - 1))
            error = float(np.sqrt(variance / shoes))
        out.append(
            {
                "max_round": k,
                "units_per_shoe": float(mean),
                "units_per_shoe_se": error,
                "bet_frequency": float(sums["bets"][k] / rounds_by_cap[k]),
            }
        )
    return out


#: One-sided 95% quantile of the normal distribution: the advice's confidence level.
Z_ONE_SIDED_95 = 1.6448536269514722


def advise(curve: list[dict[str, Any]], max_gain: float, max_round: int | None) -> dict[str, Any]:
    """The largest max round at which the gain per shoe stays below ``max_gain``.

    A cap k is safe when, for every cap up to k, the gain's one-sided 95% upper confidence
    bound (mean + 1.645 standard errors over shoes) is at most ``max_gain``. Reported:
    the largest safe cap (None if even round 1 is not; the last round dealt means no limit
    is needed), the confidence that the true gain there is below ``max_gain`` (normal
    approximation; None from a single shoe), and whether the paytable's own max round is
    safe.
    """
    safe_up_to = 0
    for point in curve:
        error = point["units_per_shoe_se"] or 0.0
        if point["units_per_shoe"] + Z_ONE_SIDED_95 * error > max_gain:
            break
        safe_up_to = point["max_round"]
    advice: dict[str, Any] = {
        "max_gain": max_gain,
        "largest_safe_max_round": safe_up_to or None,
        "needs_no_limit": bool(curve) and safe_up_to == curve[-1]["max_round"],
        "confidence": None,
        "printed_max_round_is_safe": None,
    }
    if safe_up_to:
        point = curve[safe_up_to - 1]
        error = point["units_per_shoe_se"]
        gap = max_gain - point["units_per_shoe"]
        if error is None:  # one shoe: no spread to judge by, so no confidence either
            advice["confidence"] = None
        elif error:
            advice["confidence"] = float(NormalDist().cdf(gap / error))
        else:  # every shoe gained the same
            advice["confidence"] = float(gap >= 0)
    printed = len(curve) if max_round is None else min(max_round, len(curve))
    advice["printed_max_round_is_safe"] = safe_up_to >= printed
    return advice


def per_round_table(job: CountJob, results: list[Result]) -> pd.DataFrame:
    """By (bet, mode) and round number: shoes reaching it, share with positive EV, mean
    EV and its standard error over those shoes (NaN from one shoe), share bet by the
    headline play."""
    count = sum(r["round_count"] for r in results)
    played = np.nonzero(count)[0]
    shoes = count[played]
    frames = []
    for c, (bet_id, mode) in enumerate(job.columns):
        total = {key: sum(r[key][:, c] for r in results)[played] for key in ROUND_SUMS}
        mean = total["round_ev"] / shoes
        # Each shoe deals a round number at most once: one EV per shoe reaching it.
        with np.errstate(divide="ignore", invalid="ignore"):
            variance = np.maximum(0.0, total["round_ev_sq"] - shoes * mean**2) / (shoes - 1)
        error = np.where(shoes > 1, np.sqrt(variance / shoes), np.nan)
        frames.append(
            pd.DataFrame(
                {
                    "bet": bet_id,
                    "mode": mode,
                    "round": played,
                    "shoes": shoes.astype(np.int64),
                    "positive_ev_share": total["round_positive"] / shoes,
                    "mean_ev": mean,
                    "mean_ev_se": error,
                    "bet_share_without_limit": total["round_bets"] / shoes,
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def default_threshold(effects: pd.DataFrame, tags: np.ndarray, base_ev: float, decks: int) -> float:
    """True count at which the linear model of the EORs puts the bet at break-even.

    Regressing the EORs on the tags (weighted by cards per rank) gives the EV change per
    unit of running count, ``beta``; as the shoe shrinks every EOR grows like N0 / N, so at
    true count TC (running count TC * N / 52) the EV is about ``base_ev + beta * TC * decks``.
    """
    eor = effects["delta_ev"].to_numpy()
    cards = effects["cards"].to_numpy(dtype=float)
    ranks = [RANKS.index(r) for r in effects["rank"]]
    t = tags[ranks].astype(float)
    w = cards / cards.sum()
    t_c = t - (w * t).sum()
    denominator = (w * t_c**2).sum()
    if denominator == 0:
        raise AnalyzerError("the tags are all equal: give --threshold, or other --tags")
    beta = (w * t_c * (eor - (w * eor).sum())).sum() / denominator
    if beta <= 0:
        raise AnalyzerError(
            "with these tags a higher count does not favour the bet: give "
            "--threshold, or other --tags"
        )
    return float(np.ceil(10 * (-base_ev / (beta * decks))) / 10)
