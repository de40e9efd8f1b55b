"""The exact as-dealt figure by the first exact path: dynamic programming over the
compositions by RANK in Python Fractions, each composition priced by the exact analysis
(:func:`analyzer.analysis.exact.analyze`). Slow (a shoe of a few thousand compositions at
most) but independent of the value-composition kernels of
:mod:`analyzer.engine.dealt_exact`, which the package now uses: the tests hold them
equal on small shoes."""

from __future__ import annotations

from fractions import Fraction
from math import prod
from typing import Any

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_RANKS, RANK_VALUES
from analyzer.game.shoe import ROUND_CARDS
from analyzer.runs.as_dealt import DealtJob, _rank_counts, needs_suits


def _draw_tables(table: np.ndarray) -> tuple[list, list]:
    """The pure drawing rules as Python lookups: ``player[p][b]`` (the Player draws on
    two-card totals p and b) and ``banker[p][b][t]`` (the Banker draws, the Player's
    third card's point ``t``, or 10 where the Player stood)."""
    from analyzer.engine.draw import banker_draws, player_draws
    from analyzer.game.rules import PLAYER_STOOD

    draws_p = getattr(player_draws, "py_func", player_draws)
    draws_b = getattr(banker_draws, "py_func", banker_draws)
    player = [[bool(draws_p(table, p, b) >= 1.0) for b in range(10)] for p in range(10)]
    banker = [
        [
            [bool(draws_b(table, p, b, t if t < 10 else PLAYER_STOOD) >= 1.0) for t in range(11)]
            for b in range(10)
        ]
        for p in range(10)
    ]
    return player, banker


def _round_ends(left: tuple[int, ...], draws: tuple[list, list]) -> dict[tuple[int, ...], Fraction]:
    """Every round that can be dealt from ``left`` (by rank), its cards in every order and
    its third cards by ``draws`` (:func:`_draw_tables`): the compositions it leaves and
    their chances. Orders are counted in integers (the product of the counts drawn from),
    each round's total divided by the orders of its length at the end."""
    player_draws, banker_draws = draws
    by_length: list[dict[tuple[int, ...], int]] = [{}, {}, {}]
    values = [int(RANK_VALUES[r]) for r in range(N_RANKS)]
    ranks = [r for r in range(N_RANKS) if left[r]]
    shoe = list(left)

    def end(ways: int, length: int) -> None:
        key = tuple(shoe)
        bucket = by_length[length - 4]
        bucket[key] = bucket.get(key, 0) + ways

    def third(ways: int, player: int, banker: int, drawn: int) -> None:
        # drawn: the cards of the round so far (4 or 5); the Player drew when 5.
        for r in ranks:
            n = shoe[r]
            if not n:
                continue
            shoe[r] -= 1
            if drawn == 4 and player_draws[player][banker]:
                if banker_draws[player][banker][values[r]]:
                    third(ways * n, player, banker, 5)
                else:
                    end(ways * n, 5)
            else:
                end(ways * n, drawn + 1)
            shoe[r] += 1

    def deal(ways: int, cards: list[int]) -> None:
        if len(cards) == 4:
            p1, b1, p2, b2 = (values[r] for r in cards)
            player, banker = (p1 + p2) % 10, (b1 + b2) % 10
            if player_draws[player][banker] or banker_draws[player][banker][10]:
                third(ways, player, banker, 4)
            else:
                end(ways, 4)
            return
        for r in ranks:
            n = shoe[r]
            if n:
                shoe[r] -= 1
                cards.append(r)
                deal(ways * n, cards)
                cards.pop()
                shoe[r] += 1

    deal(1, [])
    size = sum(left)
    out: dict[tuple[int, ...], Fraction] = {}
    for length, bucket in enumerate(by_length, 4):
        orders = prod(range(size - length + 1, size + 1))
        for key, ways in bucket.items():
            out[key] = out.get(key, Fraction(0)) + Fraction(ways, orders)
    return out


def reference_as_dealt(job: DealtJob, progress: bool | None = False) -> list[dict[str, Any]]:
    """Per column, exactly: the expected rounds bet per shoe and sum of their EVs, with
    and without the max round, and the round-average RTPs (Fractions).

    Dynamic programming over the compositions (by rank) a round can start at: from the
    full shoe, the shown card and the burn (each card drawn with its chance), then round
    after round (every order of its cards, the third cards by the drawing rules) while
    the rule deals one; each composition's EV is the exact analysis's. Refused before any
    work when the shoe has more than ``limit`` compositions, or a mixed strategy.
    ``progress``: a bar of the cards dealt (None: as the process says).

    Parameters
    ----------
    job : DealtJob
        The shoe (per rank or per card; priced by rank), the rule, the columns (none on
        suits) and their max rounds.
    limit : int
        The most compositions by rank the shoe may have (:func:`exact_compositions`).
    progress : bool or None
        Bars of the cards dealt and the compositions priced (None: as the process says).

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
        Too many compositions; a bet on suits; a mixed strategy (its decisions are random).

    """
    from tqdm import tqdm

    from analyzer.progress import bar_options
    from analyzer.runs.dealer import Drawing

    counts = _rank_counts(job.counts)
    if any(needs_suits(bet) for bet in job.bets):
        raise AnalyzerError(
            "--exact enumerates shoes by rank: a bet on suits is not priced there "
            "(choose bets with --bet, or sample the shoe)"
        )
    drawing = Drawing.of(job.paytable.rules, job.paytable.strategy)
    if drawing.mixed:
        raise AnalyzerError("--exact deals pure strategies only: the paytable's mixes decisions")
    draws = _draw_tables(drawing.probability)
    rule, size = job.rule, job.size
    cut = size - rule.cut_card
    one_more = rule.last_round == "one-more"
    # Before round 1: the shown card and the burn.
    start: dict[tuple[int, ...], Fraction] = {}
    full = list(counts)
    for r in range(N_RANKS if rule.burn != "none" else 0):
        if not full[r]:
            continue
        shown = Fraction(full[r], size)
        full[r] -= 1
        extra = rule.burned(int(RANK_VALUES[r])) - 1
        for left, chance in _removed(tuple(full), extra).items():
            start[left] = start.get(left, Fraction(0)) + shown * chance
        full[r] += 1
    if rule.burn == "none":
        start = {tuple(counts): Fraction(1)}
    # states[composition] = {(rounds dealt so far, last): chance}
    states: dict[tuple[int, ...], dict[tuple[int, bool], Fraction]] = {}
    for left, chance in start.items():
        states.setdefault(left, {})[(0, False)] = chance
    played: dict[tuple[int, ...], dict[int, Fraction]] = {}  # composition -> round -> chance
    ends: dict[tuple[int, ...], dict] = {}
    bar = tqdm(
        total=size - ROUND_CARDS + 1, unit=" cards", desc="dealt --exact", **bar_options(progress)
    )
    for cards_left in range(size, ROUND_CARDS - 1, -1):
        bar.update(1)
        for left in [c for c in states if sum(c) == cards_left]:
            here = states.pop(left)
            at = size - cards_left
            for (number, last), chance in here.items():
                by_round = played.setdefault(left, {})
                by_round[number + 1] = by_round.get(number + 1, Fraction(0)) + chance
                if left not in ends:
                    ends[left] = _round_ends(left, draws)
                if last:  # this round is the shoe's last
                    continue
                for after, p in ends[left].items():
                    reached = at + (cards_left - sum(after))
                    if reached > cut:
                        if not one_more or at == cut:
                            continue
                        follow = (number + 1, True)
                    else:
                        follow = (number + 1, False)
                    if sum(after) < ROUND_CARDS:
                        continue
                    bucket = states.setdefault(after, {})
                    bucket[follow] = bucket.get(follow, Fraction(0)) + chance * p
    bar.close()
    return _exact_records(job, played, progress)


def _removed(left: tuple[int, ...], k: int) -> dict[tuple[int, ...], Fraction]:
    """The compositions ``k`` cards drawn at random from ``left`` leave, and their
    chances (all of them gone where fewer than ``k`` are left)."""
    out = {left: Fraction(1)}
    for _ in range(k):
        after: dict[tuple[int, ...], Fraction] = {}
        for shoe, chance in out.items():
            size = sum(shoe)
            if not size:
                after[shoe] = after.get(shoe, Fraction(0)) + chance
                continue
            for r in range(N_RANKS):
                if shoe[r]:
                    smaller = (*shoe[:r], shoe[r] - 1, *shoe[r + 1 :])
                    after[smaller] = after.get(smaller, Fraction(0)) + chance * Fraction(
                        shoe[r], size
                    )
        out = after
    return out


def _exact_records(job: DealtJob, played: dict, progress: bool | None) -> list[dict[str, Any]]:
    """Each composition met priced by the exact analysis, summed with its chances (the
    package's own pricing of a family game's exact run: the reference's part is the
    dynamic programme above, not the pricing)."""
    from analyzer.runs.family_dealt import priced_records

    return priced_records(job, played, progress)
