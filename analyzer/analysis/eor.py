"""Effects of removal: how one card of each rank moves each bet, and the count they imply."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from analyzer.analysis.budget import (
    FEWER_CARD_BETS,
    card_walks,
    check_visits,
    distinct_walks,
    walked,
)
from analyzer.analysis.exact import (
    Analysis,
    analyze,
    by_class_walk,
    offered_bets,
    resolve_modes,
)
from analyzer.engine.batch import compiles_to_terms, exact_card_expected_values
from analyzer.engine.card_walk import COMPILING, CardWalk, WalkKey, plan, walk_key, walk_visits
from analyzer.engine.pricing import pricing
from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_CARDS, N_RANKS, N_SUITS, RANK_VALUES, RANKS, Card
from analyzer.game.shoe import ROUND_CARDS, Shoe
from analyzer.paytables.library import as_paytable
from analyzer.paytables.model import Bet, Paytable
from analyzer.schema import argument

#: Largest tag a derived count may use: counts are kept to small integers.
MAX_TAG = 4


def _expected_values(analysis: Analysis) -> dict[tuple[str, str], Fraction]:
    return {(r.bet.id, r.mode): r.expected_value for r in analysis.results}


def needs_suits(bet: Bet) -> bool:
    """Does the bet's EV depend on which suit a removed card has (suited pairs, suits and
    colours of cards, and card identities: a multiplier finds a card by rank and suit)?"""
    return pricing(bet).needs_suits


#: ``progress(bet, done, total)``: of the removals ``bet``'s effects need, ``done`` of
#: ``total`` are worked out (``done == total``: its effects are computed).
Progress = Callable[[str, int, int], None]


def _shared_work(bet: Bet, walks: dict[WalkKey, CardWalk], suits_alike: bool) -> object:
    """What the analysis of ``bet`` shares with other bets': bets on the round's outcome
    share one table (those on suits apart, unless the shoe's suits are alike: only they
    need each suit removed), a bet on the cards the walk it shares
    (:func:`~analyzer.analysis.budget.card_walks`, as :func:`analyze` plans them)."""
    priced = pricing(bet)
    if priced.engine == "cards":
        walk = walks.get(priced.walk)
        return ("walk", id(walk)) if walk is not None else priced.walk
    return ("outcome", priced.needs_suits and not suits_alike)


def _deltas(
    values: dict[tuple[str, str], Fraction],
    base: dict[tuple[str, str], Fraction],
    keys: Iterable[tuple[str, str]],
    known: dict[int, tuple[dict, dict]],
) -> dict[tuple[str, str], Fraction]:
    """The change from ``base`` of each of ``values`` whose key is among ``keys``, worked
    out once per analysis ``values`` (the removals of suits alike share it): ``known``
    keeps them, by the analysis, for one computation of the effects."""
    values_and_deltas = known.get(id(values))
    if values_and_deltas is None:
        values_and_deltas = known[id(values)] = (values, {})  # (holding values: ids stay)
    out = values_and_deltas[1]
    deltas = {}
    for key in keys:
        if key in values:
            delta = out.get(key)
            if delta is None:
                delta = out[key] = values[key] - base[key]
            deltas[key] = delta
    return deltas


def _alike_suits(shoe: Shoe) -> list[int]:
    """Per suit, the first suit the shoe holds exactly as many of, rank by rank: removing
    a card of one or the other is the same for every bet on the round's outcome (swapping
    the two suits maps the shoe to itself, and what such a bet asks of suits, suited
    pairs, does not change under it)."""
    columns = [tuple(shoe.suit_counts[:, s].tolist()) for s in range(N_SUITS)]
    return [columns.index(column) for column in columns]


def _alike_ranks(shoe: Shoe) -> list[int]:
    """Per rank, the first rank of the same point value the shoe holds exactly as many of,
    suit by suit (or in all, suits unknown): likewise, swapping the two ranks maps the
    shoe to itself, and a bet on the round's outcome asks only whether two ranks are the
    same (pairs), which the swap keeps."""
    counts = shoe.rank_counts[:, None] if shoe.suit_counts is None else shoe.suit_counts
    rows = [(int(RANK_VALUES[r]), tuple(counts[r].tolist())) for r in range(N_RANKS)]
    return [rows.index(row) for row in rows]


def _suit_blind(bet: Bet) -> bool:
    """Is the bet on the round's outcome (no suit or colour of a card compared with a
    constant: only suited pairs, which no permutation of the suits changes)?"""
    return pricing(bet).engine in ("values", "pairs", "round") and not bet.multiplied


def _relabel_blind(bet: Bet) -> bool:
    """Does relabelling the four suits leave the bet's every round as it was (its suits
    compared only with each other, and a flush, which no relabelling makes or breaks;
    no colour, no suit compared with a constant)? Removing a card or another of its rank
    in a suit the shoe holds alike then changes its EV alike (Jackpot Baccarat's 52
    removals: 13 analyses)."""
    if bet.multiplied:
        return False
    card_plan = plan(bet.fields, bet.literals, bet.relational)
    needs = [set(need) for need in card_plan.needs]
    if any("colour" in need for need in needs):
        return False
    suits = [card for card, need in enumerate(needs) if "suit" in need]
    return not suits or bool(card_plan.suit_pattern)


def _priced_at_once(
    base: Analysis,
    group: list[str],
    walks: dict[WalkKey, CardWalk],
    shoe: Shoe,
    cards: list[Card],
    removals: int,
) -> list[dict[tuple[str, str], Fraction]] | None:
    """The exact EVs of a group of bets on the cards after each of ``cards`` is removed,
    all at once: each walk they share compiled into terms and evaluated on every shoe a
    card short (Super Tie's 52 removals: one compile of a few seconds, not 52 walks).
    None where some bet of the group is not on the cards, or a walk does not compile
    (or compiles in more rounds than ``removals`` walks, one per card removed, take)."""
    results = [r for r in base.results if r.bet.id in group]
    if not cards or not all(r.bet.card_level and walk_key(r.bet) in walks for r in results):
        return None
    by_walk: dict[int, list] = {}
    for r in results:
        if not compiling_pays(walks[walk_key(r.bet)], removals + 1):
            return None
        by_walk.setdefault(id(walks[walk_key(r.bet)]), []).append(r)
    rows = []
    for card in cards:
        if shoe.suits_known:
            counts = shoe.suit_counts.copy()
            counts[card.rank, card.suit] -= 1
        else:
            counts = shoe.rank_counts.copy()
            counts[card.rank] -= 1
        rows.append(counts.reshape(-1))
    compositions = np.array(rows, dtype=np.int64)
    out: list[dict[tuple[str, str], Fraction]] = [{} for _ in cards]
    for shared in by_walk.values():
        walk = walks[walk_key(shared[0].bet)]
        bets = list({r.bet.settlement: r.bet for r in shared}.values())
        priced = exact_card_expected_values(
            bets,
            compositions,
            walk.fields,
            walk.literals,
            base.paytable.rules,
            base.paytable.strategy,
        )
        if priced is None:
            return None
        column = {bet.settlement: b for b, bet in enumerate(bets)}
        for after, evs in zip(out, priced, strict=True):
            after |= {(r.bet.id, r.mode): evs[column[r.bet.settlement]] for r in shared}
    return out


#: Card walks of at least this many rounds in all are worked out card by card by the class
#: walk, where it prices their bets (Lucky Nines: 2.6e6 rounds, 52 removals in 0.1 s by
#: the class walk, 0.4 s compiled into terms; Tie Max: 1.1e6 rounds, 13 removals of
#: suits alike in 0.02-0.03 s, 0.06-0.07 s compiled), the others compiled into terms
#: (Colour Match, 1.6e5 rounds: 0.03 s compiled, 0.06-0.1 s by the class walk).
CLASS_WALK_ROUNDS = 10**6


def compiling_pays(walk: CardWalk, analyses: int) -> bool:
    """Is ``walk`` compiled into terms, for ``analyses`` exact analyses, rather than
    walked once per analysis: short enough to compile, and compiled in fewer rounds than
    walked (a walk that sums a flush over the suits compiles suit by suit: Jackpot
    Baccarat's 2.9e4 rounds walked, 7.3e6 compiled)."""
    compiling = COMPILING * walk_visits(walk.fields, walk.literals)
    return compiles_to_terms(walk.fields, walk.literals) and compiling <= walk.visits * analyses


def removal_visits(walks: dict[WalkKey, CardWalk], analyses: int) -> int:
    """The rounds the effects of removal walk, ``analyses`` exact analyses (the full shoe
    and each removal): a shared walk that compiles into terms once and a few walks'
    worth to compile it, any other once per analysis."""
    visits = 0
    for walk in distinct_walks(walks):
        if compiling_pays(walk, analyses):
            # Compiling walks suits as they are, however the walk itself counts them.
            visits += walk.visits + COMPILING * walk_visits(walk.fields, walk.literals)
        else:
            visits += walk.visits * analyses
    return visits


def removal_effects(
    paytable: Paytable | str | os.PathLike[str],
    shoe: Shoe | None = None,
    mode: str | None = None,
    bets: list[str] | None = None,
    every_card: bool = False,
    progress: Progress | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Exact change in EV per unit of each (bet, mode) when one card leaves the shoe.

    Returns two frames. By rank (bet, mode, rank, delta_ev, delta_ev_exact, cards): with
    known suits the removed card's suit is drawn in proportion to what the shoe holds (an
    exact average over suits). By card, for the bets whose EV depends on suits (suited
    pairs, suits and colours of cards), or for every bet with ``every_card``: one row per
    card left in the shoe (bet, mode, card, rank, delta_ev, delta_ev_exact, cards).

    Bets are worked out a group at a time, the bets of a group sharing their work (one
    outcome table, or one card walk); ``progress`` (see :data:`Progress`) is told of
    every bet after each card removed for it. A paytable of another game of the family
    (:mod:`analyzer.game.games`) is worked out by its deal walk, and the bets of a punto
    banco ``[decision]`` by their best play solved again on each shoe, the same frames
    (:func:`_analysed_removal_effects`).
    """
    paytable = as_paytable(paytable)
    shoe = Shoe.standard(paytable.decks) if shoe is None else shoe
    argument(shoe, Shoe, "shoe", " (e.g. Shoe.standard(8))")
    if shoe.replacement:
        raise AnalyzerError(
            "an infinite deck has no effects of removal: a card dealt with replacement leaves "
            "every probability as it was (give a number of decks)"
        )
    if paytable.game is not None or paytable.punto_banco_decision is not None:
        # Another game, or bets played by a player's decision: an analysis per removal
        # (the decision's best play solved again on each shoe).
        return _analysed_removal_effects(paytable, shoe, mode, bets, every_card, progress)
    # The work weighed before any of it; the walks planned here serve all of it.
    offered = [bet for bet, _ in offered_bets(paytable, resolve_modes(paytable, mode), bets)]
    # Every rank removed in turn, or every card where suits matter, and the full shoe.
    by_card = every_card or any(needs_suits(bet) for bet in offered)
    analyses = 1 + (N_CARDS if by_card and shoe.suits_known else N_RANKS)
    walks = card_walks(offered, shoe, paytable.mixture)
    check_visits(
        removal_visits(walks, analyses),
        f"the effects of removal ({analyses} exact analyses)",
        FEWER_CARD_BETS,
    )
    base_analysis = analyze(paytable=paytable, shoe=shoe, mode=mode, bets=bets)
    base = _expected_values(base_analysis)
    order = {key: i for i, key in enumerate(base)}  # rows follow the analysis' order
    suit_bets = {
        (r.bet.id, r.mode) for r in base_analysis.results if every_card or needs_suits(r.bet)
    }
    if every_card and not shoe.suits_known:
        raise AnalyzerError(_NO_SUITS)
    # Where every suit is held alike, a rank's four removals are one analysis for the
    # bets on the round's outcome: they need no more removals than the others.
    alike = _alike_suits(shoe) if shoe.suits_known else list(range(N_SUITS))
    alike_rank = _alike_ranks(shoe)
    suits_alike = shoe.suits_known and len(set(alike)) == 1
    work: dict[str, set[object]] = {}
    # Bets on the cards the class walk prices share it: one analysis of them all per card.
    # (Walks of few rounds compile into terms faster: colour match's 52 removals in 0.03
    # s, against 0.1 s by the class walk.)
    card_ids = {r.bet.id for r in base_analysis.results if r.bet.card_level}
    classed = (
        bool(card_ids)
        and by_class_walk(base_analysis, card_ids)
        and walked(walks) >= CLASS_WALK_ROUNDS
    )
    for r in base_analysis.results:  # a bet id may be offered as several bets, by mode
        shared = "class walk" if classed and r.bet.id in card_ids else None
        shared = shared or _shared_work(r.bet, walks, suits_alike)
        work.setdefault(r.bet.id, set()).add(shared)
    groups: dict[frozenset, list[str]] = {}
    for bet_id, shared in work.items():
        groups.setdefault(frozenset(shared), []).append(bet_id)
    rows, card_rows = [], []
    known_deltas: dict[int, tuple[dict, dict]] = {}
    for group in groups.values():
        group_suit_bets = [key for key in order if key in suit_bets and key[0] in group]
        by_suit = shoe.suits_known and bool(group_suit_bets)
        removals_by_rank = []
        for rank in range(N_RANKS):
            held = int(shoe.rank_counts[rank])
            if held == 0 or shoe.size - 1 < ROUND_CARDS:
                continue
            if by_suit:
                removals = [
                    (Fraction(int(shoe.suit_counts[rank, s]), held), Card(rank, s))
                    for s in range(N_SUITS)
                    if shoe.suit_counts[rank, s]
                ]
            elif shoe.suits_known:
                suit = int(np.nonzero(shoe.suit_counts[rank])[0][0])  # any suit: none matters
                removals = [(Fraction(1), Card(rank, suit))]
            else:
                removals = [(Fraction(1), Card(rank))]
            removals_by_rank.append((rank, held, removals))
        total = sum(len(removals) for _, _, removals in removals_by_rank)
        done = 0
        in_group = [r.bet for r in base_analysis.results if r.bet.id in group]
        blind = all(_suit_blind(bet) for bet in in_group)
        suits_blind = blind or all(_relabel_blind(bet) for bet in in_group)

        # The card whose removal stands for each card's: itself, or where the bets keep
        # a symmetry of the shoe (suits alike, then ranks alike), the first of its kind.
        stands_for = {
            card: Card(
                alike_rank[card.rank] if blind else card.rank,
                None if card.suit is None else alike[card.suit],
            )
            if suits_blind
            else card
            for _, _, removals in removals_by_rank
            for _, card in removals
        }
        by_alike: dict[Card, dict[tuple[str, str], Fraction]] = {}
        if not (classed and set(group) <= card_ids):  # (a class walk a card short is quick)
            priced = list(dict.fromkeys(stands_for.values()))  # (one shoe per kind of removal)
            at_once = _priced_at_once(base_analysis, group, walks, shoe, priced, len(stands_for))
            by_alike = dict(zip(priced, at_once, strict=True)) if at_once is not None else {}
        for rank, held, removals in removals_by_rank:
            # Each distinct analysis of the rank's removals, with the weight of its cards
            # (one of weight 1 on a shoe whose suits are alike).
            weighed: dict[int, tuple[Fraction, dict[tuple[str, str], Fraction]]] = {}
            for weight, card in removals:
                stand_in = stands_for[card]
                values = by_alike.get(stand_in)
                if values is None:
                    removed = shoe.remove([stand_in])
                    analysis = analyze(paytable=paytable, shoe=removed, mode=mode, bets=group)
                    values = by_alike[stand_in] = _expected_values(analysis)
                so_far = weighed.get(id(values), (Fraction(0), values))[0]
                weighed[id(values)] = (so_far + weight, values)
                if by_suit:
                    deltas = _deltas(values, base, group_suit_bets, known_deltas)
                    held_of_suit = int(shoe.suit_counts[rank, card.suit])
                    for key, delta in deltas.items():
                        card_rows.append(
                            (
                                (rank, card.suit, order[key]),
                                (*key, str(card), RANKS[rank], delta, held_of_suit),
                            )
                        )
                done += 1
                if progress is not None:
                    for bet_id in group:
                        progress(bet_id, done, total)
            analyses = [values for _, values in weighed.values()]
            if all(values == analyses[0] for values in analyses[1:]):  # (weights sum to 1)
                after = analyses[0]  # (every suit alike: the common case, no arithmetic)
            else:
                after = {}
                for weight, values in weighed.values():
                    for key, value in values.items():
                        after[key] = after.get(key, Fraction(0)) + weight * value
            for key, delta in _deltas(after, base, after.keys(), known_deltas).items():
                rows.append(((rank, order[key]), (*key, RANKS[rank], delta, held)))
    if not rows:
        raise AnalyzerError(_nothing_removable(shoe, ROUND_CARDS))
    return _effects_frames(rows, card_rows)


_NO_SUITS = (
    "the effect of each card needs the shoe's suits: they are not known (a card removed by "
    "rank alone, or counts given per rank)"
)


def _nothing_removable(shoe: Shoe, round_cards: int) -> str:
    return (
        f"no card can be removed: the shoe holds {shoe.size} cards and a round may need "
        f"{round_cards}, so there are no effects of removal to compute"
    )


def _effects_frames(
    rows: list[tuple[tuple, tuple]], card_rows: list[tuple[tuple, tuple]]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The frames of effects by rank and by card: rank by rank (card by card), each in the
    analysis' order of bets, whatever the groups they were worked out in."""
    return (
        _effects_frame(rows, ["bet", "mode", "rank", "delta_ev_exact", "cards"]),
        _effects_frame(card_rows, ["bet", "mode", "card", "rank", "delta_ev_exact", "cards"]),
    )


def _analysed_removal_effects(
    paytable: Paytable,
    shoe: Shoe,
    mode: str | None,
    bets: list[str] | None,
    every_card: bool,
    progress: Progress | None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`removal_effects` by whole analyses: for another game of the family
    (:mod:`analyzer.game.games`, by its deal walk) or a punto banco paytable with a
    player's ``[decision]`` (Peek Baccarat: the decision's best play solved again on each
    shoe, so an effect is the best play's), each bet analysed on the shoe less one card
    of each rank (for the bets on suits, less each card), less its EV on the full shoe,
    exactly; a rank's row is its cards' changes weighed by how many of each suit the shoe
    holds, as punto banco's.
    The bets on suits are worked out card by card (52 analyses), the others rank by rank
    (13: a bet that looks at no suit changes alike whichever suit of a rank leaves, so
    its rows by card, ``every_card``, repeat its rank's). A walk costs a fraction of a
    second (Three Card Baccarat's, 0.1 s): 53 stay small; a walk over the budget is
    refused by the full shoe's analysis, before any other."""
    game = paytable.game
    if every_card and not shoe.suits_known:
        raise AnalyzerError(_NO_SUITS)
    base_analysis = analyze(paytable=paytable, shoe=shoe, mode=mode, bets=bets)
    base = _expected_values(base_analysis)
    order = {key: i for i, key in enumerate(base)}  # rows follow the analysis' order
    round_cards = ROUND_CARDS if game is None else game.cards
    if shoe.size - 1 < round_cards:
        raise AnalyzerError(_nothing_removable(shoe, round_cards))
    # (Bets on suits are priced only where the shoe's suits are known: the analysis left
    # them out otherwise. A bet id offered in several modes goes by suits if any does.)
    on_suits = {
        r.bet.id
        for r in base_analysis.results
        if (needs_suits(r.bet) if game is None else game.needs_suits(r.bet.fields))
    }
    ids = list(dict.fromkeys(bet_id for bet_id, _ in base))
    groups = [
        (by_suit, group)
        for by_suit in (True, False)
        if (group := [bet_id for bet_id in ids if (bet_id in on_suits) == by_suit])
    ]

    def card_row(key: tuple[str, str], card: Card, delta: Fraction) -> tuple[tuple, tuple]:
        held_of_suit = int(shoe.suit_counts[card.rank, card.suit])
        return (
            (card.rank, card.suit, order[key]),
            (*key, str(card), RANKS[card.rank], delta, held_of_suit),
        )

    rows, card_rows = [], []
    for by_suit, group in groups:
        held = {rank: int(shoe.rank_counts[rank]) for rank in range(N_RANKS)}
        ranks = [rank for rank, count in held.items() if count]
        # Each rank's removals: (weight, card), the weights summing to 1.
        removals = {
            rank: [
                (Fraction(int(shoe.suit_counts[rank, suit]), held[rank]), Card(rank, suit))
                for suit in _suits_held(shoe, rank)
            ]
            if by_suit
            else [(Fraction(1), Card(rank, (_suits_held(shoe, rank) or [None])[0]))]
            for rank in ranks
        }
        total = sum(len(cards) for cards in removals.values())
        done = 0
        for rank in ranks:
            after: dict[tuple[str, str], Fraction] = {}
            for weight, card in removals[rank]:
                analysis = analyze(
                    paytable=paytable, shoe=shoe.remove([card]), mode=mode, bets=group
                )
                for key, value in _expected_values(analysis).items():
                    after[key] = after.get(key, Fraction(0)) + weight * value
                    if by_suit:
                        card_rows.append(card_row(key, card, value - base[key]))
                done += 1
                if progress is not None:
                    for bet_id in group:
                        progress(bet_id, done, total)
            for key, value in after.items():
                delta = value - base[key]
                rows.append(((rank, order[key]), (*key, RANKS[rank], delta, held[rank])))
                if every_card and not by_suit:  # each card of the rank changes it alike
                    card_rows += [
                        card_row(key, Card(rank, suit), delta) for suit in _suits_held(shoe, rank)
                    ]
    return _effects_frames(rows, card_rows)


def _suits_held(shoe: Shoe, rank: int) -> list[int]:
    """The suits of ``rank`` the shoe holds (none where its suits are unknown)."""
    if not shoe.suits_known:
        return []
    return np.flatnonzero(shoe.suit_counts[rank]).tolist()


def _effects_frame(rows: list[tuple[tuple, tuple]], names: list[str]) -> pd.DataFrame:
    """The frame of ``(order, row)`` pairs in order, made column by column (a row's exact
    delta, ``delta_ev_exact``, is also its float ``delta_ev`` in the column before)."""
    rows.sort(key=lambda row: row[0])
    exact = names.index("delta_ev_exact")
    columns = {name: [row[n] for _, row in rows] for n, name in enumerate(names)}
    frame = dict(list(columns.items())[:exact])
    frame["delta_ev"] = [float(delta) for delta in columns["delta_ev_exact"]]
    frame |= dict(list(columns.items())[exact:])
    return pd.DataFrame(frame) if rows else pd.DataFrame(columns=list(frame))


def effects_of_removal(
    paytable: Paytable | str | os.PathLike[str],
    shoe: Shoe | None = None,
    mode: str | None = None,
    bets: list[str] | None = None,
) -> pd.DataFrame:
    """Exact change in EV per unit of each (bet, mode) when one card of each rank leaves
    (see :func:`removal_effects`; with known suits, an exact average over the suit)."""
    return removal_effects(paytable, shoe, mode, bets)[0]


@dataclass(frozen=True)
class LinearCount:
    bet: str
    mode: str
    tags: dict[str, int]
    betting_correlation: float


#: How much better a balanced count that tags ranks of the same effect apart must
#: correlate with the effects than the best that keeps them alike to be chosen instead
#: (Jacobson's 9 over 7: 0.77 alike, 0.97 apart; the seed game's naturals, 0.90 and
#: 0.97, stay alike).
SPLIT_GAIN = 0.1


def _correlation(tags: np.ndarray, effects: np.ndarray, weights: np.ndarray) -> float:
    """Pearson correlation of tags and effects over the cards of the shoe."""
    w = weights / weights.sum()
    tags_c = tags - (w * tags).sum()
    effects_c = effects - (w * effects).sum()
    denominator = np.sqrt((w * tags_c**2).sum() * (w * effects_c**2).sum())
    return float((w * tags_c * effects_c).sum() / denominator) if denominator else 0.0


def _balanced_tags(target: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """The integer tags of at most ``MAX_TAG`` in size nearest ``target`` (least squared
    error over the shoe's cards, ``sum(cards * (tags - target)**2)``) whose sum over the
    shoe's cards, ``sum(cards * tags)``, is exactly 0: a balanced count. ``target`` is one
    target per entry, or a row of them per scale (each row balanced on its own, at once).

    A balanced count is what makes "running count per deck left" a true count: rounding
    alone can leave it drifting with the cards seen (Dragon Big's +1 for seven ranks and
    -1 for six drifts by 4 for each deck dealt). Worked out exactly by dynamic
    programming over the entries and the running sum of ``cards * tags`` (in units of the
    counts' greatest common divisor: a full shoe's 13 ranks sum from -52 to 52). All tags
    0 is always balanced, so there is always an answer. Of equally near answers, the
    earlier entries keep the tag nearest their target (then the one nearer 0) and the
    later ones take the correction: Dragon Big's seven ranks A to 7, each 6/7, balanced
    against six at -1, are +1 but for the 7, which is 0.
    """
    targets = np.atleast_2d(np.asarray(target, dtype=float))
    n_scales, n_entries = targets.shape
    weights = np.asarray(cards, dtype=float)
    counts = np.rint(weights).astype(np.int64)
    unit = math.gcd(*counts.tolist()) or 1
    steps = counts // unit
    span = MAX_TAG * int(steps.sum())
    size = 2 * span + 1
    tags_range = np.arange(-MAX_TAG, MAX_TAG + 1)
    n_tags = len(tags_range)
    cost = np.full((n_scales, size), np.inf)
    cost[:, span] = 0.0  # (index: the running sum plus span)
    chosen = np.zeros((n_entries, n_scales, size), dtype=np.int64)
    # The last entry first, so that walking back from a sum of 0 gives the first entry
    # its choice first (ties: see above).
    for i in range(n_entries - 1, -1, -1):
        pad = MAX_TAG * int(steps[i])
        padded = np.full((n_scales, size + 2 * pad), np.inf)
        padded[:, pad : pad + size] = cost
        # Tag t reaches sum j from sum j - t * step: column j - t * step + pad of padded.
        index = ((MAX_TAG - tags_range) * steps[i])[:, None] + np.arange(size)
        error = weights[i] * (tags_range - targets[:, i, None]) ** 2  # (scales, tags)
        candidates = padded[:, index] + error[:, :, None]  # (scales, tags, sums)
        least = candidates.min(axis=1)
        # Of the tags within rounding of the least error, the most preferred: nearest
        # the target, then nearest 0.
        near = candidates <= (least + 1e-9 * np.maximum(1.0, np.abs(least)))[:, None, :]
        distance = np.abs(tags_range - targets[:, i, None])
        order = np.lexsort((np.broadcast_to(np.abs(tags_range), distance.shape), distance))
        preference = np.argsort(order, axis=1)  # (scales, tags): each tag's place
        pick = np.where(near, preference[:, :, None], n_tags).argmin(axis=1)
        chosen[i] = tags_range[pick]
        cost = least
    tags = np.zeros((n_scales, n_entries), dtype=np.int64)
    at = np.full(n_scales, span)
    rows = np.arange(n_scales)
    for i in range(n_entries):
        tags[:, i] = chosen[i, rows, at]
        at -= tags[:, i] * steps[i]
    return tags.reshape(np.shape(target))


#: The columns of effects of removal that :func:`linear_counts` reads.
_EFFECT_COLUMNS = ("bet", "mode", "rank", "delta_ev", "cards")


def linear_counts(effects: pd.DataFrame) -> list[LinearCount]:
    """Per (bet, mode): balanced integer tags (their sum over the shoe's cards 0) of at
    most ``MAX_TAG`` in size nearest each rank's EOR less the shoe's mean EOR, scaled
    (a card whose removal raises the bet's EV counts positive when it is seen), with the
    scale of best betting correlation. Ranks whose removal has exactly the same effect
    (10, J, Q, K in most bets) are tagged alike where some balanced count keeps them
    alike, unless tagging them one by one correlates better by more than
    :data:`SPLIT_GAIN`; where none does (Dragon Big: A to 7 alike against 8 to K, seven
    ranks against six), they are tagged one by one. A bet whose EOR is the same for
    every rank gets all-zero tags: no linear count helps it."""
    argument(effects, pd.DataFrame, "effects", " (see effects_of_removal)")
    missing = [c for c in _EFFECT_COLUMNS if c not in effects.columns]
    if missing:
        raise AnalyzerError(
            f"effects need the columns of effects_of_removal: no {', '.join(missing)}"
        )
    counts = []
    for (bet, mode), group in effects.groupby(["bet", "mode"], sort=False):
        eor = group["delta_ev"].to_numpy()
        cards = group["cards"].to_numpy(dtype=float)
        # Ranks whose removal has exactly the same effect form one class and are tagged
        # alike: balancing moves classes, never single ranks, unless it must.
        exact = group["delta_ev_exact"] if "delta_ev_exact" in group else group["delta_ev"]
        class_index: dict[object, int] = {}
        class_of_rank = np.array([class_index.setdefault(v, len(class_index)) for v in exact])
        class_cards = np.bincount(class_of_rank, weights=cards)
        class_eor = np.array([eor[class_of_rank == c][0] for c in range(len(class_index))])
        centred = class_eor - (class_cards * class_eor).sum() / class_cards.sum()
        peak = np.abs(centred).max()
        best = {alike: (0.0, np.zeros(len(eor), dtype=np.int64)) for alike in (True, False)}
        if peak > 1e-15 * max(1.0, np.abs(eor).max()):
            targets = np.arange(1, MAX_TAG + 1)[:, None] * (centred / peak)  # per scale
            for alike in (True, False):  # classes kept whole, and rank by rank
                if not alike and best[True][0] + SPLIT_GAIN >= 1:
                    break  # (no correlation passes 1: telling ranks apart cannot win)
                if alike:
                    by_scale = _balanced_tags(targets, class_cards)[:, class_of_rank]
                else:
                    by_scale = _balanced_tags(targets[:, class_of_rank], cards)
                for tags in by_scale:  # (the least scale first: it wins a tie)
                    score = _correlation(tags, eor, cards)
                    if score > best[alike][0] + 1e-12:
                        best[alike] = (score, tags)
        # Ranks alike are told apart (which of them take the correction is a matter of
        # rank order, not of their effects) only where no count keeps them alike, or
        # where telling them apart correlates clearly better.
        kept, apart = best[True], best[False]
        score, tags = apart if kept[0] <= 0 or apart[0] > kept[0] + SPLIT_GAIN else kept
        counts.append(
            LinearCount(
                bet, mode, dict(zip(group["rank"], (int(t) for t in tags), strict=True)), score
            )
        )
    return counts


def with_linear_counts(
    effects: pd.DataFrame,
) -> tuple[pd.DataFrame, dict[tuple[str, str], LinearCount]]:
    """``effects`` (by rank, as :func:`removal_effects` gives them) with each row's ``tag``
    in its bet's linear count and that count's ``betting_correlation``, and the counts by
    (bet, mode): the table ``eor`` prints and the Python API gives."""
    counts = {(c.bet, c.mode): c for c in linear_counts(effects)}
    tagged = effects.copy()
    tagged["tag"] = [
        counts[(b, m)].tags[r]
        for b, m, r in zip(effects["bet"], effects["mode"], effects["rank"], strict=True)
    ]
    tagged["betting_correlation"] = [
        counts[(b, m)].betting_correlation
        for b, m in zip(effects["bet"], effects["mode"], strict=True)
    ]
    return tagged, counts
