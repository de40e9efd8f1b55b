"""The shoe as it is dealt: the round-average RTP a player meets, per bet and mode.

A live table does not deal rounds off the top of a full shoe. It shows the first card and
burns cards by its value, stops at a cut card, and withdraws a side bet after its max
round. The *round-average RTP* of a bet over shoes dealt that way is

    RTP_dealt = 1 + E[S] / E[B]

where, for one shoe, ``B`` is the number of rounds the bet is on offer in (rounds 1 to its
max round that are dealt) and ``S`` the sum over those rounds of the bet's exact expected
value per unit paid on the cards left in the shoe as the round starts. ``E[S]`` is also
the expected sum of the bet's nets over the shoe (whether a round is dealt is decided
before its cards are seen), so ``RTP_dealt`` is the return per unit of every unit bet by a
player who bets one unit on every round offered, averaged over many shoes.

Sampled (:func:`dealt_partition`, :func:`dealt_summary`): the ratio estimator over ``n``
shoes dealt at random, ``sum S_i / sum B_i``, with its standard error by the delta method
across shoes (:func:`analyzer.runs.stats.ratio_and_error`). The round EVs are exact (the
batch engine prices each round's composition), so only the shoes' spread enters the
interval, not the rounds' own outcomes.

Exact (:func:`exact_as_dealt`): for shoes small enough, every order of the cards the
stopping rule depends on is enumerated by dynamic programming over the compositions a
round can start at (by rank): the chance that round ``k`` starts at composition ``c``,
times the exact EV on ``c``, summed; a Fraction.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import prod
from typing import Any

import numpy as np

from analyzer.errors import AnalyzerError, tell
from analyzer.files import write_atomically, write_text_atomically
from analyzer.game.cards import N_CARDS, N_RANKS, RANKS
from analyzer.game.games import Game
from analyzer.game.rules import BURN_BY_VALUE
from analyzer.game.shoe import Shoe
from analyzer.interrupts import Interrupted
from analyzer.paytables.model import Bet, Paytable
from analyzer.runs import LAST_ROUND_RULES
from analyzer.runs.runner import Result, partition_rng
from analyzer.runs.stats import Z_95, ratio_and_error

#: How cards are burned before round 1: ``by-value`` (the dealer shows the first card and
#: burns as many more as its point value, a ten or face card 10: live tables' rule),
#: ``none``, or a whole number N (the shown card and N more).
BURN_RULES = ("by-value", "none")
#: The most burned cards a fixed burn takes.
MAX_BURN = 52
#: The most compositions by point value the exact enumeration visits: one deck's
#: (17 * 5**9 = 33,203,125), whose pass takes minutes; two decks' (33 * 9**9) are
#: 12.8 billion, beyond memory.
MAX_EXACT_COMPOSITIONS = 34_000_000
#: A game of the family's exact figure prices each composition by rank it meets with the
#: exact analysis (:func:`analyzer.runs.family_dealt.exact_family_dealt`): beyond this
#: many, more than minutes.
MAX_EXACT_RANK_COMPOSITIONS = 20_000


def parse_burn(text: str) -> str:
    """A burn rule as given: ``by-value``, ``none`` or a whole number 0 to :data:`MAX_BURN`."""
    text = str(text).strip()
    if text in BURN_RULES:
        return text
    if text.isdigit() and int(text) <= MAX_BURN:
        return str(int(text))
    raise AnalyzerError(
        f"--burn must be by-value, none or a number of cards 0 to {MAX_BURN}, got {text[:20]!r}"
    )


@dataclass(frozen=True)
class DealRule:
    """How a shoe is dealt: the cards left behind the cut card, the burn
    (:data:`BURN_RULES`, or a whole number as text) and the last-round rule
    (:data:`~analyzer.runs.LAST_ROUND_RULES`: at ``cut-card`` the round in which the cut
    card comes out is the last; at ``one-more`` one more round follows unless the cut
    card came out in place of a round's first card). A round is dealt only while
    :data:`~analyzer.game.shoe.ROUND_CARDS` cards are left."""

    cut_card: int
    burn: str = "by-value"
    last_round: str = "cut-card"

    def __post_init__(self) -> None:
        parse_burn(self.burn)
        if self.last_round not in LAST_ROUND_RULES:
            raise AnalyzerError(
                f"unknown last-round rule {self.last_round!r} "
                f"(rules: {', '.join(LAST_ROUND_RULES)})"
            )

    def check(self, size: int) -> None:
        """Refuse a cut card outside the shoe: 0 to ``size - 1`` cards from the end of a
        shoe of ``size`` cards (one in front of round 1 lets round 1 alone be dealt)."""
        if not 0 <= self.cut_card <= size - 1:
            raise AnalyzerError(
                f"--cut-card must leave 0 to {size - 1} cards behind it in a shoe of "
                f"{size} cards, got {self.cut_card}"
            )

    def burned(self, value: int) -> int:
        """Cards taken before round 1 when the first card has point ``value``."""
        if self.burn == "none":
            return 0
        if self.burn == "by-value":
            return 1 + int(BURN_BY_VALUE[value])
        return 1 + int(self.burn)

    def record(self) -> dict[str, Any]:
        return {"cut_card": self.cut_card, "burn": self.burn, "last_round": self.last_round}


@dataclass(frozen=True)
class DealtJob:
    """Shoes of ``counts`` (13 per rank, suits unknown, or 52 per card) dealt by ``rule``,
    every (bet, mode) of ``columns`` priced at each round's start. ``max_rounds``: each
    column's max round (None: none), by default the bet's own."""

    paytable: Paytable
    columns: tuple[tuple[str, str], ...]
    counts: tuple[int, ...]
    rule: DealRule
    seed: int = 0
    max_rounds: tuple[int | None, ...] | None = None

    def __post_init__(self) -> None:
        if len(self.counts) not in (N_RANKS, N_CARDS):
            raise AnalyzerError("a dealt shoe has 13 counts (per rank) or 52 (per card)")
        self.rule.check(self.size)
        if self.max_rounds is None:
            object.__setattr__(self, "max_rounds", tuple(b.max_round for b in self.bets))
        if len(self.max_rounds) != len(self.columns):
            raise AnalyzerError("one max round per column")

    @property
    def size(self) -> int:
        return int(sum(self.counts))

    @property
    def bets(self) -> list[Bet]:
        return [self.paytable.bet(bet_id, mode) for bet_id, mode in self.columns]

    @property
    def n_columns(self) -> int:
        return len(self.columns)

    @property
    def per_card(self) -> bool:
        return len(self.counts) == N_CARDS

    def partition_bytes(self, shoes: int) -> int:
        """About the most memory a partition of ``shoes`` takes: per round, its
        composition (52 int64) and EVs (8 bytes a column), a round per 4 cards; per
        shoe, the dealt cards' running counts (52 int64 a card)."""
        rounds = shoes * (self.size // 4 + 1)
        return rounds * (8 * N_CARDS + 8 * self.n_columns) + 8 * N_CARDS * self.size

    @property
    def identity(self) -> dict[str, Any]:
        return {
            "command": "dealt",
            "paytable": self.paytable.fingerprint,
            "columns": [list(column) for column in self.columns],
            "counts": list(self.counts),
            "rule": self.rule.record(),
            "seed": self.seed,
            "max_rounds": list(self.max_rounds),
        }

    def check(self, result: Result, shoes: int) -> None:
        """Raise ``ValueError`` unless ``result`` is shaped as a partition of ``shoes``."""
        shapes = {"rounds": (shoes,)}
        for key in PER_COLUMN:
            shapes[key] = (shoes, self.n_columns)
        if set(result) != set(shapes):
            raise ValueError(f"keys {sorted(result)}, expected {sorted(shapes)}")
        for key, shape in shapes.items():
            expected = np.int64 if key.endswith("bets") or key == "rounds" else np.float64
            if result[key].shape != shape or result[key].dtype != expected:
                raise ValueError(f"{key}: {result[key].dtype} {result[key].shape}")


#: Per shoe and column: the sum of the round EVs and the rounds bet, with the max round
#: (``limit_``) and without it (``all_``).
PER_COLUMN = ("limit_ev", "limit_bets", "all_ev", "all_bets")
#: Shoes dealt and priced at once.
_SHOE_CHUNK = 256


def _card_types(job: DealtJob) -> np.ndarray:
    """The shoe's cards as card indices (rank-major, 4 suits): per rank, suit 0 where
    suits are unknown (only the composition by rank is read then)."""
    if job.per_card:
        return np.repeat(np.arange(N_CARDS, dtype=np.int64), job.counts)
    return np.repeat(np.arange(N_RANKS, dtype=np.int64) * 4, job.counts)


def _starts(job: DealtJob, first_cards: np.ndarray) -> np.ndarray:
    from analyzer.game.cards import CARD_VALUES

    values = CARD_VALUES[first_cards]
    return np.array([job.rule.burned(int(v)) for v in range(10)], dtype=np.int64)[values]


def dealt_partition(job: DealtJob, index: int, shoes: int) -> Result:
    """Deal ``shoes`` shoes (partition ``index`` of the job's seed) and sum, per shoe and
    column, the exact EVs of the rounds bet and their number, with and without the max
    round.

    Parameters
    ----------
    job : DealtJob
        The shoe, the rule it is dealt by, the columns priced and the seed.
    index : int
        The partition: its random numbers are ``SeedSequence(seed, spawn_key=(index,))``'s.
    shoes : int
        The shoes it deals.

    Returns
    -------
    dict of numpy arrays
        ``rounds`` (shoes,) int64: the rounds each shoe dealt; per shoe and column,
        (shoes, columns): ``limit_ev`` and ``all_ev`` (float64, the sums of the round EVs
        per unit paid with and without the max round), ``limit_bets`` and ``all_bets``
        (int64, the rounds bet).
    """
    return dealt_in_chunks(job, index, shoes, _dealt_shoes)


def dealt_in_chunks(job: DealtJob, index: int, shoes: int, deal) -> Result:
    """Partition ``index``'s ``shoes`` dealt by ``deal(job, rng, n)`` in chunks of
    ``_SHOE_CHUNK`` from the partition's own random numbers, the chunks' results joined
    (punto banco's and the family's partitions alike)."""
    rng = partition_rng(job.seed, index)
    parts = [
        deal(job, rng, min(_SHOE_CHUNK, shoes - first)) for first in range(0, shoes, _SHOE_CHUNK)
    ]
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def _dealt_shoes(job: DealtJob, rng: np.random.Generator, shoes: int) -> Result:
    from analyzer.engine.round_sums import shoe_window_sums
    from analyzer.runs.dealer import Drawing, deal_rows
    from analyzer.runs.dealt_rounds import round_compositions, round_windows

    paytable = job.paytable
    drawing = Drawing.of(paytable.rules, paytable.strategy)
    base = _card_types(job)
    size = len(base)
    cards = np.tile(base, (shoes, 1))
    for i in range(shoes):
        rng.shuffle(cards[i])
    max_rounds = size // 4 + 1
    uniforms = np.zeros((shoes, max_rounds, 2))
    if drawing.mixed:
        for i in range(shoes):
            uniforms[i] = rng.random((max_rounds, 2))
    starts = _starts(job, cards[:, 0])
    cut = size - job.rule.cut_card
    table, n_rounds = deal_rows(cards, starts, cut, job.rule.last_round, drawing, uniforms)
    # Per shoe and window of rounds (those each max round allows), the EVs summed.
    type_of_card = np.arange(N_CARDS) if job.per_card else np.arange(N_CARDS) // 4
    counts = np.asarray(job.counts, dtype=np.int64)
    compositions = round_compositions(cards, type_of_card, table[:, :, 1], n_rounds, counts)
    if paytable.punto_banco_decision is not None:  # each round's play solved on its cards
        return _solved_round_sums(job, compositions, n_rounds, table[:, :, 0])
    window, last = round_windows(job.max_rounds, max_rounds)
    n_windows = int(window[-1]) + 1
    sums = shoe_window_sums(
        job.bets, compositions, n_rounds, window, n_windows, paytable.rules, paytable.strategy
    )
    # Rounds dealt in each window: window w holds rounds low[w] to high[w] - 1.
    low = np.searchsorted(window, np.arange(n_windows), "left")
    high = np.searchsorted(window, np.arange(n_windows), "right")
    dealt = np.clip(n_rounds[:, None] - low, 0, high - low)
    result: Result = {"rounds": n_rounds.copy()}
    result["all_ev"] = sums.sum(axis=1)
    result["all_bets"] = np.repeat(n_rounds[:, None], job.n_columns, axis=1).astype(np.int64)
    result["limit_ev"] = np.empty((shoes, job.n_columns))
    result["limit_bets"] = np.empty((shoes, job.n_columns), dtype=np.int64)
    for c, w in enumerate(last):
        upto = n_windows if w is None else w + 1
        result["limit_ev"][:, c] = sums[:, :upto, c].sum(axis=1)
        result["limit_bets"][:, c] = dealt[:, :upto].sum(axis=1)
    return result


def _solved_round_sums(
    job: DealtJob, compositions: np.ndarray, n_rounds: np.ndarray, numbers: np.ndarray
) -> Result:
    """Per shoe, the sums of a game with a punto banco ``[decision]`` (Peek): each round's
    EV is its best play solved on the cards left (:func:`analyzer.analysis.solved`), so
    the rounds are priced one by one, not summed by window first."""
    from analyzer.analysis.solved import solved_values

    dealt = np.arange(compositions.shape[1])[None, :] < n_rounds[:, None]
    shoe_of_round = np.nonzero(dealt)[0]
    number = numbers[:, : compositions.shape[1]][dealt]
    if dealt.any():
        ev = solved_values(job.paytable, job.columns, compositions[dealt])
    else:
        ev = np.zeros((0, job.n_columns))
    return summed_by_shoe(job, n_rounds, shoe_of_round, number, ev)


def summed_by_shoe(
    job: DealtJob,
    n_rounds: np.ndarray,
    shoe_of_round: np.ndarray,
    number: np.ndarray,
    ev: np.ndarray,
) -> Result:
    """A partition's result from its rounds priced one by one: each round's shoe, number
    and EVs (a row per round, a column per bet and mode) summed per shoe, with each
    column's max round (``limit_``) and without it (``all_``)."""
    shoes = len(n_rounds)
    result: Result = {"rounds": n_rounds.astype(np.int64)}
    limits = np.array([np.iinfo(np.int64).max if m is None else m for m in job.max_rounds])
    offered = number[:, None] <= limits
    for key in PER_COLUMN:
        result[key] = np.zeros((shoes, job.n_columns), np.int64 if key.endswith("bets") else float)
    for c in range(job.n_columns):
        result["limit_ev"][:, c] = np.bincount(
            shoe_of_round, weights=np.where(offered[:, c], ev[:, c], 0.0), minlength=shoes
        )
        result["limit_bets"][:, c] = np.bincount(
            shoe_of_round, weights=offered[:, c], minlength=shoes
        ).astype(np.int64)
        result["all_ev"][:, c] = np.bincount(shoe_of_round, weights=ev[:, c], minlength=shoes)
    result["all_bets"][:] = n_rounds[:, None]
    return result


def off_the_top(job: DealtJob) -> list[Fraction]:
    """Each column's exact RTP on the full shoe (off the top)."""
    from analyzer.analysis.exact import analyze
    from analyzer.paytables.model import restricted

    single = restricted(job.paytable, job.columns)
    results = analyze(paytable=single, shoe=_shoe_of(job.counts)).results
    rtp = {(r.bet.id, r.mode): r.rtp for r in results}
    return [rtp[column] for column in job.columns]


def _shoe_of(counts: tuple[int, ...]):
    from analyzer.game.shoe import Shoe

    array = np.asarray(counts, dtype=np.int64)
    if len(array) == N_CARDS:
        suits = array.reshape(N_RANKS, 4)
        return Shoe(suits.sum(axis=1), suits)
    return Shoe(array)


def dealt_summary(job: DealtJob, results: list[Result], exact_rtp: list[Fraction]) -> list[dict]:
    """Per column: the round-average RTP with the max round and without it, each with its
    standard error and 95% interval, and their differences from the RTP off the top.

    Parameters
    ----------
    job : DealtJob
        The job the partitions were dealt by.
    results : list of dict
        Its partitions' results (:func:`dealt_partition`), in any order.
    exact_rtp : list of Fraction
        Each column's RTP off the top (:func:`off_the_top`).

    Returns
    -------
    list of dict
        A record per column: ``bet``, ``name``, ``mode``, ``max_round``, ``shoes``,
        ``rounds_per_shoe``, ``rtp_off_the_top``, and ``with_limit`` and
        ``without_limit``, each ``rounds_bet_per_shoe``, ``rtp`` (``1 + sum S / sum B``
        over the shoes), ``rtp_se`` (delta method over shoes; None from fewer than two
        shoes with a round bet), ``rtp_low``, ``rtp_high`` (``rtp`` ± 1.96 ``rtp_se``)
        and ``difference`` (``rtp`` less the RTP off the top).
    """
    rounds = np.concatenate([r["rounds"] for r in results]).astype(float)
    out = []
    for c, ((bet_id, mode), top) in enumerate(zip(job.columns, exact_rtp, strict=True)):
        row: dict[str, Any] = {
            "bet": bet_id,
            "name": job.paytable.bet(bet_id, mode).display_name(),
            "mode": mode,
            "max_round": job.max_rounds[c],
            "shoes": len(rounds),
            "rounds_per_shoe": float(rounds.mean()),
            "rtp_off_the_top": top,
        }
        for name in ("limit", "all"):
            ev = np.concatenate([r[f"{name}_ev"][:, c] for r in results])
            bets = np.concatenate([r[f"{name}_bets"][:, c] for r in results]).astype(float)
            ratio, error = ratio_and_error(ev, bets)
            key = "with_limit" if name == "limit" else "without_limit"
            row[key] = _figures(1 + ratio, error, float(top), float(bets.mean()))
        out.append(row)
    return out


def _figures(rtp: float, se: float, top: float, bets_per_shoe: float) -> dict[str, Any]:
    def number(x: float) -> float | None:
        return None if np.isnan(x) else float(x)

    return {
        "rounds_bet_per_shoe": bets_per_shoe,
        "rtp": number(rtp),
        "rtp_se": number(se),
        "rtp_low": number(rtp - Z_95 * se),
        "rtp_high": number(rtp + Z_95 * se),
        "difference": number(rtp - top),
    }


# -- Exact: every order of a small shoe -------------------------------------------------------


def exact_compositions(counts: tuple[int, ...]) -> int:
    """Compositions by point value a shoe of ``counts`` (per rank or per card) can be
    dealt down to: the product of (cards of the value + 1) over the 10 values, what the
    exact enumeration visits."""
    from analyzer.engine.dealt_exact import value_counts

    return prod(n + 1 for n in value_counts(tuple(int(n) for n in counts)))


#: Compositions by value above which ``dealt --exact`` keeps its work in the user's cache
#: without ``--work-dir`` (minutes of passes; a smaller shoe's take seconds, kept nowhere).
KEEP_EXACT_ABOVE = 10**6


def keeps_exact_work(counts: tuple[int, ...]) -> bool:
    """Does the command line keep an exact run of this shoe's work without ``--work-dir``?"""
    return exact_compositions(counts) > KEEP_EXACT_ABOVE


def check_exact(counts: tuple[int, ...], limit: int = MAX_EXACT_COMPOSITIONS) -> None:
    """Refuse, before any work, a shoe whose compositions by value are more than ``limit``."""
    states = exact_compositions(counts)
    if states > limit:
        raise AnalyzerError(
            f"--exact: a shoe of {sum(counts)} cards can be dealt down to {states:,} "
            f"compositions by point value (at most {limit:,}, one deck's): use a "
            "smaller shoe (--shoe), or sample it (--shoes)"
        )


def refuse_decision_exact(paytable: Paytable) -> None:
    """Refuse, in one line, ``--exact`` on a punto banco game with a ``[decision]`` (Peek):
    the passes price each bet by fixed nets over a round's point values, and a bet of the
    decision is raised by its best play on each composition."""
    if paytable.game is None and paytable.punto_banco_decision is not None:
        raise AnalyzerError(
            f"--exact prices each bet by fixed nets over the rounds' point values; the bets "
            f"of {paytable.source}'s [decision] are raised by their best play on each "
            "round's cards: sample it (--shoes)"
        )


def check_exact_by_rank(counts: tuple[int, ...], limit: int = MAX_EXACT_RANK_COMPOSITIONS) -> None:
    """Refuse, before any work, a shoe of a game of the family whose compositions by rank
    (each priced by the exact analysis) are more than ``limit``."""
    states = prod(n + 1 for n in _rank_counts(counts))
    if states > limit:
        raise AnalyzerError(
            f"--exact: a game of the family prices every composition by rank its shoe can be "
            f"dealt down to, and a shoe of {sum(counts)} cards has {states:,} (at most "
            f"{limit:,}): use a smaller shoe (--shoe), or sample it (--shoes)"
        )


def _rank_counts(counts: tuple[int, ...]) -> tuple[int, ...]:
    if len(counts) == N_CARDS:
        return tuple(int(x) for x in np.asarray(counts).reshape(N_RANKS, 4).sum(axis=1))
    return tuple(int(x) for x in counts)


#: The most round transitions (compositions by value times the rounds each can deal,
#: summed) times the prime passes an exact run may take: one deck (6.5e10 transitions,
#: 6 passes) fits; beyond it a run takes more than hours.
MAX_EXACT_WORK = 10**12
#: Primes dealt in one pass (each pass kept in --work-dir when finished).
PRIMES_PER_PASS = 5
#: Seconds of a pass's work between two checkpoints of it kept in --work-dir: at most this
#: much work is lost to a kill (Ctrl-C and SIGTERM lose none: they keep one). Writing one
#: deck's (1.3 GB) took 1.1 to 5 s on the development machine
#: (benchmarks/bench_dealt_checkpoint.py), so this costs under 2% of a pass.
CHECKPOINT_SECONDS = 300.0


def exact_plan(job: DealtJob):
    """The exact run's plan (:class:`~analyzer.engine.dealt_exact.DealPlan`), each
    column's nets per term, and its work (transitions times passes), refusing before any
    work a mixed strategy, a bet the value walk does not price, or too much work."""
    from analyzer.engine.dealt_exact import (
        DealPlan,
        ValueShoe,
        round_terms,
        term_nets,
        transitions,
        value_counts,
    )
    from analyzer.runs.dealer import Drawing

    check_exact(job.counts)
    paytable = job.paytable
    if Drawing.of(paytable.rules, paytable.strategy).mixed:
        raise AnalyzerError("--exact deals pure strategies only: the paytable's mixes decisions")
    tableau = paytable.mixture[0][1]
    nets = [term_nets(bet, tableau, job.counts) for bet in job.bets]
    shoe = ValueShoe(value_counts(job.counts))
    rule = job.rule
    burned = None if rule.burn == "none" else tuple(rule.burned(v) - 1 for v in range(10))
    most = shoe.size // 4 + 1
    caps = [m for m in job.max_rounds if m is not None and m < most]
    terms = round_terms(tableau)
    plan = DealPlan(
        shoe, terms, burned, job.size - rule.cut_card, rule.last_round == "one-more",
        max(caps, default=0) + 1,
    )  # fmt: skip
    work = transitions(shoe.full, terms) * plan.buckets * len(plan.primes())
    if work > MAX_EXACT_WORK:
        raise AnalyzerError(
            f"--exact: a shoe of {job.size} cards takes about {work:.2g} round transitions "
            f"over its {shoe.states:,} compositions by value (at most {MAX_EXACT_WORK:.0e}): "
            "use a smaller shoe (--shoe), or sample it (--shoes)"
        )
    return plan, nets, work


def exact_as_dealt(
    job: DealtJob,
    progress: bool | None = None,
    work_dir: str | None = None,
    resume: bool = False,
) -> list[dict[str, Any]]:
    """Per column, exactly: the expected rounds bet per shoe and sum of their EVs, with
    and without the max round, and the round-average RTPs (Fractions).

    Dynamic programming over the compositions by point value a round can start at
    (:mod:`analyzer.engine.dealt_exact`): from the full shoe, the shown card and the burn,
    then round after round (every order of its values, the third cards by the drawing
    rules) while the rule deals one, in passes modulo primes rebuilt by the Chinese
    remainder theorem. Each bet is priced from its net over each round's values, the
    cards' identities (ranks, suits) averaged: bets on values and on pairs (suited pairs
    on a shoe per card). Refused before any work when the work is too large
    (:data:`MAX_EXACT_WORK`), for a mixed strategy, or a bet on the cards themselves.

    Parameters
    ----------
    job : DealtJob
        The shoe (per rank or per card), the rule, the columns and their max rounds.
    progress : bool or None
        A bar of the rows of compositions dealt (None: as the process says).
    work_dir : str or None
        A folder where each finished pass is kept, and a pass partway is checkpointed
        (:class:`PassCheckpoint`: every :data:`CHECKPOINT_SECONDS` of work, and on Ctrl-C
        or SIGTERM), in the job's folder ``dealt-exact-<digest>`` (None: nothing kept).
    resume : bool
        Read the passes kept in ``work_dir`` for this job instead of running them again,
        and deal a pass on from its checkpoint; the figures are those of a run never
        stopped.

    Returns
    -------
    list of dict
        A record per column as :func:`dealt_summary`'s, every figure a Fraction: with
        ``with_limit`` and ``without_limit`` each ``rounds_bet_per_shoe`` (E[B]),
        ``ev_per_shoe`` (E[S]), ``rtp`` (``1 + E[S] / E[B]``; None where no round is
        bet) and ``difference``.

    Raises
    ------
    AnalyzerError
        Too much work; a bet on the cards themselves; a mixed strategy; the work folder
        cannot be used, or another run is using it.
    Interrupted
        Ctrl-C or SIGTERM with ``work_dir``: the pass is checkpointed (the message says
        where); without it, ``KeyboardInterrupt``.

    Examples
    --------
    >>> from analyzer import seed_paytable
    >>> shoe = (3, 0, 0, 0, 1, 0, 0, 3, 2, 0, 0, 0, 3)  # per rank, A to K
    >>> job = DealtJob(seed_paytable(), (("tie", "commission"),), shoe, DealRule(0, "none"))
    >>> tie = exact_as_dealt(job, progress=False)[0]
    >>> tie["with_limit"]["difference"], tie["rounds_per_shoe"]
    (Fraction(0, 1), Fraction(2, 1))
    """
    from analyzer.engine.dealt_exact import crt
    from analyzer.paytables.settle import Settlement

    refuse_decision_exact(job.paytable)
    plan, nets, _ = exact_plan(job)
    primes = plan.primes()
    groups = [primes[i : i + PRIMES_PER_PASS] for i in range(0, len(primes), PRIMES_PER_PASS)]
    kept = _exact_folder(job, plan, work_dir)
    lock = -1 if kept is None else _take_exact_folder(kept, job, groups, resume)
    try:
        done = _exact_passes(plan, groups, kept, resume, progress)
    finally:
        if lock >= 0:
            os.close(lock)
    passes = [done[p] for p in primes]
    orders = plan.shoe.orders
    n_buckets, n_terms = passes[0]["moments"].shape
    played = [crt([int(r["played"][j]) for r in passes], primes) for j in range(n_buckets)]
    moments = [
        [crt([int(r["moments"][j, t]) for r in passes], primes) for t in range(n_terms)]
        for j in range(n_buckets)
    ]
    walk_index = plan.terms.walk_index.tolist()
    net_sums = [  # per column and bucket: the sum over the terms of G * NET (per unit staked)
        [
            sum(
                (g * column[t] for t, g in zip(walk_index, moments[j], strict=True) if g),
                Fraction(0),
            )
            for j in range(n_buckets)
        ]
        for column in nets
    ]
    top = off_the_top(job)
    records = []
    bets_all = Fraction(sum(played), orders)
    for c, (bet_id, mode) in enumerate(job.columns):
        bet = job.bets[c]
        fee = Settlement(bet).fee
        cap = job.max_rounds[c]
        limit = [j for j in range(n_buckets) if cap is None or cap >= plan.most_rounds or j < cap]
        record: dict[str, Any] = {
            "bet": bet_id,
            "name": bet.display_name(),
            "mode": mode,
            "max_round": cap,
            "rounds_per_shoe": bets_all,
            "rtp_off_the_top": top[c],
        }
        for key, buckets in (("with_limit", limit), ("without_limit", range(n_buckets))):
            bets = Fraction(sum(played[j] for j in buckets), orders)
            net = sum((net_sums[c][j] for j in buckets), Fraction(0)) / orders
            record[key] = exact_figures(bets, (net - fee * bets) / (1 + fee), top[c])
        records.append(record)
    return records


def exact_figures(bets: Fraction, ev: Fraction, top: Fraction) -> dict[str, Any]:
    """One column's exact figures with or without its max round, from the expected rounds
    bet per shoe (E[B]) and sum of their EVs (E[S]): the round-average RTP
    ``1 + E[S] / E[B]`` (None where no round is bet) and its difference from ``top``, the
    RTP off the top."""
    rtp = 1 + ev / bets if bets else None
    return {
        "rounds_bet_per_shoe": bets,
        "ev_per_shoe": ev,
        "rtp": rtp,
        "difference": None if rtp is None else rtp - top,
    }


def _exact_passes(plan, groups: list[list[int]], kept, resume: bool, progress) -> dict:
    """Each prime's pass results: read back (``resume``, the group's passes all kept),
    or dealt (from the group's checkpoint with ``resume``), each kept when finished."""
    from tqdm import tqdm

    from analyzer.engine.dealt_exact import deal_pass, rows
    from analyzer.progress import bar_options

    done: dict[int, dict[str, np.ndarray]] = {}
    per_pass = rows(plan.shoe)
    bar = tqdm(
        total=per_pass * len(groups), unit=" rows", desc="dealt --exact", **bar_options(progress)
    )
    try:
        for number, group in enumerate(groups, 1):
            paths = {p: None if kept is None else kept / f"prime-{p}.npz" for p in group}
            if resume and all(path is not None and path.exists() for path in paths.values()):
                read = {p: _read_pass(path, plan) for p, path in paths.items()}
                if all(result is not None for result in read.values()):
                    done |= read  # type: ignore[arg-type]
                    bar.update(per_pass)
                    continue
                tell(
                    f"note: a finished pass in {kept} is damaged or another program "
                    f"version's: pass {number} is dealt again"
                )
            checkpoint = None if kept is None else PassCheckpoint(kept, group, per_pass)
            state = None
            if checkpoint is not None and resume:
                bar.set_postfix_str("reading the checkpoint")  # (1.3 GB for one deck)
                state = checkpoint.load(plan, number)
                bar.set_postfix_str("")
            if state is not None:
                bar.update(per_pass - state.row)  # the rows dealt before are not dealt again

            def summing(k: int, n: int) -> None:
                bar.set_postfix_str(f"summing the counts modulo prime {k} of {n}")

            try:
                results = deal_pass(
                    plan, group, bar.update, state, None if checkpoint is None else checkpoint.keep,
                    summing,
                )  # fmt: skip
                bar.set_postfix_str("")
            except KeyboardInterrupt:
                if checkpoint is None:
                    raise
                raise Interrupted(f"interrupted: {checkpoint.said(number, len(groups))}") from None
            for p, result in zip(group, results, strict=True):
                if paths[p] is not None:
                    try:
                        _save_atomically(paths[p], result)
                    except OSError as exc:
                        raise AnalyzerError(
                            f"cannot keep pass {number} in {kept}: {exc.strerror or exc}"
                        ) from None
                done[p] = result
            if checkpoint is not None:
                checkpoint.remove()
    finally:
        bar.close()
    return done


class PassCheckpoint:
    """A pass partway, kept in the job's folder (``pass-P.checkpoint.npz``, ``P`` the
    group's first prime) so that ``resume`` deals on from the rows reached: the round
    starts ``a`` and ``extra`` (:class:`~analyzer.engine.dealt_exact.PassState`) and a
    JSON entry naming the job (the folder's digest), the primes, the program version and
    the rows dealt.

    Written atomically (a temporary file, flushed to disk, then renamed) after a block of
    rows once :data:`CHECKPOINT_SECONDS` of work have passed since the last, and on
    Ctrl-C or SIGTERM; skipped, with a one-line note, when the disk has not the room. A
    checkpoint that does not match (another job, primes or program version, another
    shape, a damaged or cut-short file: the zip's CRC-32 checks every byte) is never
    used: the pass starts again from its first row, with a one-line note. A finished
    pass removes its checkpoint."""

    #: The layout of the file; another is not read.
    FORMAT = 1

    def __init__(self, folder, primes: list[int], rows: int) -> None:
        from analyzer.runs.runner import program_version

        self.path = folder / f"pass-{primes[0]}.checkpoint.npz"
        self.identity = {
            "format": self.FORMAT,
            "job": folder.name,
            "primes": [int(p) for p in primes],
            "program": program_version(),
            "rows": int(rows),
        }
        self.kept_row: int | None = None  # the rows the file on disk has dealt
        self.since = time.monotonic()
        self.failed: str | None = None  # why the last write failed (said once)

    def load(self, plan, number: int):
        """The pass as kept (a :class:`~analyzer.engine.dealt_exact.PassState`), None when
        there is none or it cannot be used (said in one line: the pass starts again)."""
        from analyzer.engine.dealt_exact import PassState, pass_fits

        if not os.path.lexists(self.path):
            return None
        why = "is damaged or not this pass's"
        try:
            if not stat.S_ISREG(os.stat(self.path).st_mode):
                raise ValueError("not a file")
            with self.path.open("rb") as stream, np.load(stream, allow_pickle=False) as data:
                meta = _small_text(data, _CHECKPOINT_META)
                row = meta.pop("row")
                if meta != self.identity or type(row) is not int:
                    if {**meta, "program": self.identity["program"]} == self.identity:
                        # Said as such: a program updated between Ctrl-C and --resume.
                        why = (
                            f"was written by another program version "
                            f"({str(meta['program'])[:60]}, this is {self.identity['program']})"
                        )
                    raise ValueError("another job, primes or program version")
                states = plan.shoe.states
                width = len(self.identity["primes"])
                declared = {key: _entry_shape(data, key) for key in ("a", "extra")}
                if declared["a"] != (states, width * plan.buckets) or declared["extra"] not in (
                    (1, width),
                    (states, width),
                ):
                    raise ValueError("another shape")
                state = PassState(data["a"], data["extra"], row)
            if not pass_fits(plan, self.identity["primes"], state):
                raise ValueError("not a pass of this job")
        except KeyboardInterrupt:
            raise
        except Exception:  # damaged, cut short, another job's: never used
            tell(
                f"note: the checkpoint {self.path} {why}: pass {number} starts again from "
                "its first row"
            )
            self.remove()  # out of the way of the pass's own
            return None
        self.kept_row = state.row
        return state

    def keep(self, state, interrupted: bool) -> None:
        """Keep ``state`` when it is due (or ``interrupted``) and new; a failure to write
        is said once and the pass goes on (it is kept when it finishes)."""
        if state.row == self.kept_row:
            return
        if not interrupted and time.monotonic() - self.since < CHECKPOINT_SECONDS:
            return
        need = state.a.nbytes + state.extra.nbytes + (1 << 20)
        try:
            free = shutil.disk_usage(self.path.parent).free
            if free < need:
                raise OSError(f"{_gigabytes(need)} needed, {_gigabytes(free)} free on the disk")
            meta = {**self.identity, "row": int(state.row)}

            def write(temporary: str) -> None:
                with open(temporary, "wb") as stream:
                    np.savez(
                        stream,
                        a=state.a,
                        extra=state.extra,
                        **{_CHECKPOINT_META: np.array(json.dumps(meta, sort_keys=True))},
                    )
                    stream.flush()
                    os.fsync(stream.fileno())  # a machine going away keeps it whole

            write_atomically(self.path, write)
        except OSError as exc:
            why = exc.strerror or str(exc)
            if why != self.failed and not interrupted:  # (the interrupted message says it)
                tell(f"note: cannot keep a checkpoint of the pass in {self.path.parent}: {why}")
            self.failed = why
        else:
            self.kept_row, self.failed = state.row, None
        self.since = time.monotonic()

    def remove(self) -> None:
        """Remove the checkpoint (whatever is in its place: a folder too); a failure
        leaves it, never used unchecked."""
        with contextlib.suppress(OSError):
            if self.path.is_dir() and not self.path.is_symlink():
                shutil.rmtree(self.path)
            else:
                self.path.unlink(missing_ok=True)

    def said(self, number: int, passes: int) -> str:
        """Where an interrupted pass stands, for its message."""
        rows = self.identity["rows"]
        if self.kept_row is None:  # stopped before its first block, or no room
            kept = "no checkpoint of it was kept" + (f" ({self.failed})" if self.failed else "")
            if number == 1:  # nothing at all to go on from: --resume would start it again
                return f"pass {number} of {passes}: {kept}; the same command starts it again"
        else:
            kept = f"{rows - self.kept_row:,} of its {rows:,} rows are kept in {self.path}"
        return f"pass {number} of {passes}: {kept}; run the same command with --resume to go on"


#: The checkpoint's entry that describes it (a JSON string).
_CHECKPOINT_META = "__meta__"


def _entry_shape(data, key: str) -> tuple[int, ...]:
    """The shape an int64 ``.npz`` entry declares (its data is not read)."""
    from analyzer.runs.runner import declared_entry

    entry = declared_entry(data, key)
    if entry.dtype != np.int64:
        raise ValueError(f"{key}: {entry.dtype}")
    return tuple(entry.shape)


def _small_text(data, key: str) -> dict:
    """The JSON object in the ``.npz`` entry ``key``, refused unread when it is large."""
    from analyzer.runs.runner import declared_entry

    entry = declared_entry(data, key)
    if entry.dtype.kind != "U" or entry.shape != () or entry.itemsize > 1 << 16:
        raise ValueError(key)
    value = json.loads(str(data[key][()]))
    if not isinstance(value, dict):
        raise ValueError(key)
    return value


def _gigabytes(count: int) -> str:
    return f"{count / 1e9:.1f} GB"


def _take_exact_folder(folder, job: DealtJob, groups: list[list[int]], resume: bool) -> int:
    """Make and lock the job's folder for this run (a second run of it is refused), clear
    what a run killed while writing left (``.tmp-*``), and record what it holds
    (``run.json``: ``baccarat-odds cache`` lists and removes it). A folder where that
    cannot be written is refused before any work, unless every pass is kept there and
    read back (``resume``)."""
    from analyzer.runs.kept import EXACT_DEALT
    from analyzer.runs.runner import lock_run_folder

    lock = lock_run_folder(folder)
    kept = all((folder / f"prime-{p}.npz").is_file() for group in groups for p in group)
    try:
        for leftover in folder.glob(".tmp-*"):
            with contextlib.suppress(OSError):
                leftover.unlink()
        record = {
            "command": EXACT_DEALT,
            "paytable": {"name": job.paytable.name},
            "passes": groups,
            "shoe": list(job.counts),
            "rule": job.rule.record(),
        }
        text = json.dumps(record, sort_keys=True, indent=1)
        path = folder / "run.json"
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            write_text_atomically(path, text)
        if not (resume and kept):  # a pass will be kept: the folder takes files
            handle, probe = tempfile.mkstemp(dir=folder, prefix=".tmp-")
            os.close(handle)
            os.unlink(probe)
    except OSError as exc:
        if not (resume and kept):
            os.close(lock)
            raise AnalyzerError(
                f"{folder}: cannot keep the passes here: {exc.strerror or exc}"
            ) from None
    except BaseException:
        os.close(lock)
        raise
    return lock


def _exact_folder(job: DealtJob, plan, work_dir: str | None):
    """The folder of this job's kept passes (None: none kept): named by a digest of what
    the passes depend on."""
    if work_dir is None:
        return None
    import hashlib
    import json
    from pathlib import Path

    what = {
        "counts": list(plan.shoe.full),
        "burned": plan.burned,
        "cut": plan.cut,
        "one_more": plan.one_more,
        "buckets": plan.buckets,
        "tableau": job.paytable.mixture[0][1].key,
    }
    digest = hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:16]
    return Path(work_dir) / f"dealt-exact-{digest}"  # made (and locked) by the run


def _save_atomically(path, result: dict[str, np.ndarray]) -> None:
    """Keep a finished pass with the program version that dealt it: written to a
    temporary file, flushed to the disk, then renamed over ``path``."""
    from analyzer.runs.runner import program_version

    def write(temporary: str) -> None:
        with open(temporary, "wb") as stream:
            np.savez(stream, program=np.array(program_version()), **result)
            stream.flush()
            os.fsync(stream.fileno())

    write_atomically(path, write)


def _read_pass(path, plan) -> dict[str, np.ndarray] | None:
    """A finished pass kept by :func:`_save_atomically`, or None where it is not one this
    program dealt for ``plan`` (another version's, damaged, cut short: dealt again)."""
    from analyzer.runs.runner import program_version

    try:
        with path.open("rb") as stream, np.load(stream, allow_pickle=False) as data:
            if str(data["program"]) != program_version():
                return None
            result = {key: data[key] for key in ("played", "moments")}
    except KeyboardInterrupt:
        raise
    except Exception:  # damaged or cut short (the zip's CRC-32 is checked as it is read)
        return None
    if result["played"].shape != (plan.buckets,) or result["moments"].shape != (
        plan.buckets,
        len(plan.terms.k),
    ):
        return None
    return result


def needs_suits(bet: Bet, game: Game | None = None) -> bool:
    """Does ``bet`` (of ``game``; None: punto banco) need suits (not priced on a shoe by
    rank)?"""
    from analyzer.engine.pricing import pricing

    if game is not None:
        return game.needs_suits(bet.fields)
    return pricing(bet).unavailable(False) is not None


def rank_text(counts: tuple[int, ...]) -> str:
    """A shoe by rank in words: ``A:2 5:1 K:3``."""
    ranks = _rank_counts(counts)
    return " ".join(f"{RANKS[r]}:{n}" for r, n in enumerate(ranks) if n)


# -- A run's job, from its options (the command line's and the Python API's) ------------------


def dealt_job(
    paytable: Paytable,
    bets: Sequence[str] | None,
    mode: str | None,
    *,
    decks: int | None = None,
    shoe: Shoe | None = None,
    rule: DealRule,
    seed: int = 0,
    exact: bool = False,
    shoes: int | None = None,
    partition_size: int = 250,
) -> tuple[DealtJob, Shoe]:
    """The job of a ``dealt`` run (every option checked, the work weighed before any shoe
    is dealt) and the shoe it deals: ``shoe`` (a shoe file's, by rank or card) or
    ``decks`` full decks (default: the paytable's). ``bets``: bet ids or ``["all"]``
    (None: all); ``exact``: every order of the shoe's point values (no ``shoes``),
    else ``shoes`` sampled in partitions of ``partition_size``."""
    from analyzer.analysis.exact import check_known
    from analyzer.game.shoe import Shoe
    from analyzer.paytables.model import restricted
    from analyzer.runs.count_plan import count_columns
    from analyzer.runs.jobs import MAX_PARTITIONS, check_partition_memory, partition_sizes

    check_known(paytable)  # every round's EV needs the unknowns' values
    columns = count_columns(paytable, list(bets or ["all"]), mode)
    if shoe is not None:
        if shoe.suit_counts is not None:
            counts = tuple(int(n) for n in np.asarray(shoe.suit_counts).ravel())
        else:
            counts = tuple(int(n) for n in shoe.rank_counts)
    else:
        decks = decks or paytable.decks
        if not isinstance(decks, int):
            raise AnalyzerError(
                "an infinite deck has no shoe to deal: dealing needs a number of decks, 1 to 27"
            )
        shoe = Shoe.standard(decks)
        counts = (decks,) * 52
    rule.check(shoe.size)
    if exact:
        check_exact(counts) if paytable.game is None else check_exact_by_rank(counts)
        refuse_decision_exact(paytable)
    if len(counts) == 13:
        columns = priced_by_rank(paytable, columns, given=bool(bets))
    single = restricted(paytable, columns)
    job = DealtJob(single, columns, counts, rule, seed)
    if not exact:
        assert shoes is not None
        sizes = partition_sizes(shoes, partition_size)
        if len(sizes) > MAX_PARTITIONS:
            raise AnalyzerError(
                f"--shoes {shoes:,} in partitions of {partition_size:,} makes "
                f"{len(sizes):,} partitions (at most {MAX_PARTITIONS:,}): raise --partition-size"
            )
        check_partition_memory(sizes, job)
        check_dealt_work(job, shoe, shoes)
    return job, shoe


def priced_by_rank(paytable: Paytable, columns: tuple, given: bool) -> tuple:
    """The columns a shoe by rank (suits unknown) prices: a bet on suits asked for by
    --bet is refused; of every bet (no --bet), those on suits are left out, said on
    standard error."""
    from analyzer.errors import tell

    on_suits = [c for c in columns if needs_suits(paytable.bet(*c), paytable.game)]
    if on_suits and given:
        raise AnalyzerError(
            f"{on_suits[0][0]} is a bet on suits: a shoe by rank (--shoe per rank, --exact) "
            "does not price it (choose bets with --bet, or a shoe per card)"
        )
    kept = tuple(c for c in columns if c not in on_suits)
    if not kept:
        raise AnalyzerError("every bet asked for is on suits: a shoe by rank prices none")
    if on_suits:
        left_out = ", ".join(dict.fromkeys(bet for bet, _ in on_suits))
        tell(f"note: a shoe by rank does not price bets on suits: left out {left_out}")
    return kept


def check_dealt_work(job: DealtJob, shoe: Shoe, shoes: int) -> None:
    """The exact work weighed before any shoe is dealt: the analysis off the top, and
    every round's EV (as count weighs it)."""
    from analyzer.analysis.budget import check_analyses, check_visits
    from analyzer.analysis.solved import check_solved_work, solved_per_round
    from analyzer.engine.batch import compiled_per_process, walked_per_composition
    from analyzer.engine.card_walk import COMPILING

    if solved_per_round(job.paytable):  # each round's best play solved on its cards
        from analyzer.analysis.exact import check_known
        from analyzer.runs.solved_rounds import solved_rounds_bound

        check_known(job.paytable)
        per_shoe = solved_rounds_bound(job.paytable, job.size, job.rule.cut_card)
        check_solved_work(
            shoes * per_shoe, "dealt", "deal fewer shoes (--shoes), or fewer decks (--decks)"
        )
        return
    if job.paytable.game is not None:  # as count weighs a game's
        from analyzer.runs.jobs import check_game_work

        check_game_work(job.paytable, job.bets, shoe, "dealt")
        return
    bets = job.bets
    mixture = job.paytable.mixture
    check_analyses(bets, shoe, mixture=mixture)
    rounds = shoes * (job.size // 4)
    visits = rounds * walked_per_composition(bets) + COMPILING * compiled_per_process(bets)
    check_visits(
        visits * len(mixture),
        f"pricing up to {rounds:,} rounds exactly",
        "deal fewer shoes (--shoes), or price the other bets apart (--bet)",
    )


def exact_record(record: dict[str, Any]) -> dict[str, Any]:
    """An exact record (:func:`exact_as_dealt`) as a sampled one's fields have it: the
    errors none, the interval the figure itself, no ``ev_per_shoe``, ``shoes`` None."""
    out = dict(record)
    for key in ("with_limit", "without_limit"):
        figures = dict(record[key])
        figures.pop("ev_per_shoe")
        figures |= {"rtp_se": None, "rtp_low": figures["rtp"], "rtp_high": figures["rtp"]}
        out[key] = figures
    out["shoes"] = None
    return out
