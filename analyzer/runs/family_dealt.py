"""The shoe as it is dealt (:mod:`analyzer.runs.as_dealt`) for the family's games dealt once:
Dragon Tiger, Lightning Dragon Tiger, Three Card Baccarat, or a paytable's own ``[game]``
without drawing or a decision.

Such a game's round takes ``game.cards`` cards, always: where each round starts is
arithmetic (the burn, then ``game.cards`` apart), and only the burn (by the first card's
value) and the cut card decide how many rounds a shoe deals. Sampled
(:func:`family_partition`): shoes shuffled from the same random numbers as punto banco's
dealt shoes, each round's composition priced by the game's own batch engine
(:mod:`analyzer.engine.game_batch`, as ``count`` prices it: exact per composition, rounded
once to a float). Exact (:func:`exact_family_dealt`): a round's composition is the shoe
less the shown card, the burn and the earlier rounds' cards, each drawn at random, so
dynamic programming over the compositions by rank (the cards removed one at a time, each
with its chance) gives every round's chance of each composition; each composition's EV is
the exact analysis's (a Fraction).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.game.cards import CARD_VALUES, N_CARDS, N_RANKS, RANK_VALUES
from analyzer.game.shoe import ROUND_CARDS
from analyzer.runs.game_dealer import kept_game_batch
from analyzer.runs.runner import Result

if TYPE_CHECKING:  # (the dealt job's module imports this one's functions lazily)
    from analyzer.game.games import Game
    from analyzer.runs.as_dealt import DealRule, DealtJob

__all__ = [
    "dealt_task",
    "exact_dealt",
    "exact_family_dealt",
    "family_partition",
    "family_rounds",
    "priced_records",
]


def family_rounds(starts: np.ndarray, size: int, rule: DealRule, per_round: int) -> np.ndarray:
    """The rounds of ``per_round`` cards a shoe of ``size`` cards deals from card
    ``starts[i]`` (after the burn) by ``rule``, as punto banco's deal has it
    (:class:`~analyzer.runs.as_dealt.DealRule`): round 1 whenever its cards are left;
    the round in which the cut card comes out (the first to end past it) is the last, or
    with ``one-more`` one more follows unless the cut card came out in place of that
    round's first card.

    Examples
    --------
    >>> from analyzer.runs.as_dealt import DealRule
    >>> family_rounds(np.array([1, 2, 11]), 52, DealRule(14), 2)  # the cut card at card 38
    array([19, 19, 14])
    >>> family_rounds(np.array([1, 2]), 52, DealRule(14, last_round="one-more"), 2)
    array([20, 19])
    """
    starts = np.asarray(starts, dtype=np.int64)
    cut = size - rule.cut_card  # the first card behind the cut card
    # The first round to end past the cut card (round 1 however far the burn went).
    last = np.maximum((cut - starts) // per_round + 1, 1)
    if rule.last_round == "one-more":
        in_place_of_first = starts + (last - 1) * per_round == cut
        last = last + np.where(in_place_of_first, 0, 1)
    return np.maximum(np.minimum(last, (size - starts) // per_round), 0)


def dealt_task(job: DealtJob) -> Callable[[DealtJob, int, int], Result]:
    """The partition task of a ``dealt`` run: :func:`family_partition` for a game of the
    family, else punto banco's :func:`~analyzer.runs.as_dealt.dealt_partition`."""
    from analyzer.runs.as_dealt import dealt_partition

    return dealt_partition if job.paytable.game is None else family_partition


def exact_dealt(
    job: DealtJob,
    progress: bool | None = None,
    work_dir: str | None = None,
    resume: bool = False,
) -> list[dict[str, Any]]:
    """The exact records of a ``dealt --exact`` run: :func:`exact_family_dealt` for a
    game of the family, else punto banco's :func:`~analyzer.runs.as_dealt.exact_as_dealt`
    (its finished passes kept in ``work_dir``, read back with ``resume``)."""
    from analyzer.runs.as_dealt import exact_as_dealt

    game = job.paytable.game
    if game is None:
        return exact_as_dealt(job, progress=progress, work_dir=work_dir, resume=resume)
    if game.by_values:
        raise AnalyzerError(
            f"--exact enumerates rounds of a set number of cards: a round of {game.name} "
            "takes cards by the play solved on its composition (sample it: --shoes)"
        )
    return exact_family_dealt(job, progress=progress)


def _card_types(job: DealtJob) -> np.ndarray:
    """The shoe's cards as card indices: a shoe by rank has each rank's cards at suit 0
    (the batch engine reads them by rank then; no bet on suits is asked of it)."""
    counts = _counts52(job)
    return np.repeat(np.arange(N_CARDS, dtype=np.int64), counts)


def _counts52(job: DealtJob) -> np.ndarray:
    """The shoe's cards per card index (a shoe by rank's at suit 0)."""
    counts = np.asarray(job.counts, dtype=np.int64)
    if job.per_card:
        return counts
    out = np.zeros(N_CARDS, dtype=np.int64)
    out[np.arange(N_RANKS) * 4] = counts
    return out


def family_partition(job: DealtJob, index: int, shoes: int) -> Result:
    """:func:`~analyzer.runs.as_dealt.dealt_partition` for a game dealt once: ``shoes``
    shoes (partition ``index`` of the job's seed) dealt and every round priced by the
    game's batch engine; the same keys, shapes and dtypes."""
    from analyzer.runs.as_dealt import dealt_in_chunks

    return dealt_in_chunks(job, index, shoes, _family_shoes)


def _family_shoes(job: DealtJob, rng: np.random.Generator, shoes: int) -> Result:
    from analyzer.runs.as_dealt import summed_by_shoe

    game: Game = job.paytable.game
    per_round = game.cards
    base = _card_types(job)
    size = len(base)
    cards = np.tile(base, (shoes, 1))
    for i in range(shoes):  # (as punto banco's shoes are shuffled: the same shoes)
        rng.shuffle(cards[i])
    burned = np.array([job.rule.burned(v) for v in range(10)], dtype=np.int64)
    starts = burned[CARD_VALUES[cards[:, 0]]]
    if game.by_values:  # each round played and priced by the play solved on its cards
        n_rounds, ev = _solved_shoes(job, cards, starts)
    else:
        n_rounds = family_rounds(starts, size, job.rule, per_round)
    shoe_of_round = np.repeat(np.arange(shoes), n_rounds)
    begins = np.repeat(np.cumsum(n_rounds) - n_rounds, n_rounds)
    number = np.arange(len(shoe_of_round)) - begins + 1
    if not len(shoe_of_round):
        ev = np.zeros((0, job.n_columns))
    elif not game.by_values:
        at = starts[shoe_of_round] + (number - 1) * per_round  # each round's first card
        by_shoe = np.split(at, np.cumsum(n_rounds))
        ev = kept_game_batch(job.paytable, job.columns, job.bets).expected_values(
            _compositions(job, cards, by_shoe)
        )
    return summed_by_shoe(job, n_rounds, shoe_of_round, number, ev)


def _solved_shoes(job: DealtJob, cards: np.ndarray, starts: np.ndarray) -> tuple:
    """Each shoe dealt round by round by the play solved on each round's cards
    (:func:`~analyzer.runs.solved_rounds.deal_solved_shoe`): the rounds per shoe and
    every round's EVs, shoe after shoe."""
    from analyzer.runs.solved_rounds import deal_solved_shoe

    cut = job.size - job.rule.cut_card
    one_more = job.rule.last_round == "one-more"
    counts = _counts52(job)
    n_rounds, evs = [], []
    for i in range(len(cards)):
        _, ev = deal_solved_shoe(
            job.paytable, job.columns, cards[i], int(starts[i]), cut, one_more, counts
        )
        n_rounds.append(len(ev))
        evs.append(ev)
    return np.array(n_rounds, dtype=np.int64), np.concatenate(evs)


def _compositions(job: DealtJob, cards: np.ndarray, starts: list[np.ndarray]) -> np.ndarray:
    """The cards of each index left at each shoe's round starts (``starts[i]``, shoe
    ``i``'s, ascending), the shoes' rounds one after another: (rounds, 52) int64."""
    from analyzer.runs.dealer import compositions_at_starts

    counts = _counts52(job)
    full = job.per_card and (counts == counts[0]).all()
    out = []
    for i, at in enumerate(starts[: len(cards)]):
        if not len(at):
            continue
        if full:  # full decks: the dealer's own kernel
            out.append(compositions_at_starts(cards[i], at, int(counts[0])))
            continue
        dealt = np.zeros((len(cards[i]) + 1, N_CARDS), dtype=np.int64)
        dealt[np.arange(1, len(cards[i]) + 1), cards[i]] = 1
        np.cumsum(dealt, axis=0, out=dealt)
        out.append(counts - dealt[at])
    return np.concatenate(out)


def exact_family_dealt(
    job: DealtJob, limit: int | None = None, progress: bool | None = None
) -> list[dict[str, Any]]:
    """Per column, exactly: the expected rounds bet per shoe and the sum of their EVs,
    with and without the max round, and the round-average RTPs (Fractions; the records
    of punto banco's :func:`~analyzer.runs.as_dealt.exact_as_dealt`).

    The burn's length is the shown card's value's; from there every round takes
    ``game.cards`` cards, so how many rounds follow is known from the shown card alone
    (:func:`family_rounds`). Round ``k``'s composition is the shoe less the shown card
    and ``m = burn - 1 + (k - 1) * game.cards`` more cards drawn at random: it is the
    shoe less ``x`` (``x_r`` cards of rank ``r``) with the hypergeometric chance
    ``prod_r C(n_r, x_r) / C(N, m)``. Each composition met is priced by the exact
    analysis. Refused before any work, as punto banco's, when the shoe has more
    compositions than ``limit``, a bet is on suits, or a round can start with fewer
    cards than the exact analysis takes.

    Parameters
    ----------
    job : DealtJob
        The shoe (priced by rank), the rule, the columns and their max rounds.
    limit : int, optional
        The most compositions by rank the shoe may have (default:
        :data:`~analyzer.runs.as_dealt.MAX_EXACT_RANK_COMPOSITIONS`).
    progress : bool or None
        A bar of the compositions priced (None: as the process says).

    Returns
    -------
    list of dict
        As :func:`~analyzer.runs.as_dealt.exact_as_dealt` gives them.

    Raises
    ------
    AnalyzerError
        Too many compositions; a bet on suits; a round from too few cards.

    Examples
    --------
    >>> from analyzer.paytables.library import as_paytable
    >>> from analyzer.runs.as_dealt import DealRule, DealtJob
    >>> table = as_paytable("dragon-tiger")
    >>> shoe = (4, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 4)  # A, 7 and K: ten cards by rank
    >>> job = DealtJob(table, (("tie", "standard"),), shoe, DealRule(5, "none"))
    >>> tie = exact_family_dealt(job, progress=False)[0]
    >>> tie["rounds_per_shoe"], tie["with_limit"]["difference"]
    (Fraction(3, 1), Fraction(0, 1))
    """
    from analyzer.runs.as_dealt import MAX_EXACT_RANK_COMPOSITIONS, check_exact_by_rank

    game: Game = job.paytable.game
    counts = _rank_counts(job.counts)
    check_exact_by_rank(counts, MAX_EXACT_RANK_COMPOSITIONS if limit is None else limit)
    on_suits = [bet.id for bet in job.bets if game.needs_suits(bet.fields)]
    if on_suits:
        raise AnalyzerError(
            f"--exact enumerates shoes by rank: {on_suits[0]} is a bet on suits, not priced "
            "there (choose bets with --bet, or sample the shoe)"
        )
    rule, size, per_round = job.rule, job.size, game.cards
    _check_round_sizes(counts, rule, per_round)
    # The shown card (its rank and chance) and where round 1 starts after it.
    if rule.burn == "none":
        firsts = [(counts, Fraction(1), 0, 0)]
    else:
        firsts = [
            (
                (*counts[:r], counts[r] - 1, *counts[r + 1 :]),
                Fraction(counts[r], size),
                rule.burned(int(RANK_VALUES[r])),
                1,
            )
            for r in range(N_RANKS)
            if counts[r]
        ]
    played: dict[tuple[int, ...], dict[int, Fraction]] = {}  # composition -> round -> chance
    for left, chance, start, shown in firsts:
        rounds = int(family_rounds(np.array([start]), size, rule, per_round)[0])
        for number in range(1, rounds + 1):
            drawn = start - shown + (number - 1) * per_round
            for composition, p in _hypergeometric(left, drawn).items():
                by_round = played.setdefault(composition, {})
                by_round[number] = by_round.get(number, Fraction(0)) + chance * p
    return priced_records(job, played, progress)


def _rank_counts(counts: tuple[int, ...]) -> tuple[int, ...]:
    if len(counts) == N_CARDS:
        return tuple(int(x) for x in np.asarray(counts).reshape(N_RANKS, 4).sum(axis=1))
    return tuple(int(x) for x in counts)


def _hypergeometric(left: tuple[int, ...], drawn: int) -> dict[tuple[int, ...], Fraction]:
    """The compositions ``drawn`` cards taken at random from ``left`` (by rank) leave,
    each with its chance ``prod_r C(left_r, x_r) / C(N, drawn)``."""
    out: dict[tuple[int, ...], Fraction] = {}
    total = comb(sum(left), drawn)
    for taken in itertools.product(*(range(min(n, drawn) + 1) for n in left)):
        if sum(taken) != drawn:
            continue
        ways = 1
        for n, x in zip(left, taken, strict=True):
            ways *= comb(n, x)
        out[tuple(n - x for n, x in zip(left, taken, strict=True))] = Fraction(ways, total)
    return out


def priced_records(job: DealtJob, played: dict, progress: bool | None) -> list[dict[str, Any]]:
    """The exact records of the compositions ``played`` (composition -> round number ->
    chance): each composition's EVs by the exact analysis, summed with their chances."""
    from tqdm import tqdm

    from analyzer.analysis.exact import analyze
    from analyzer.game.shoe import Shoe
    from analyzer.paytables.model import restricted
    from analyzer.progress import bar_options
    from analyzer.runs.as_dealt import exact_figures, off_the_top

    single = restricted(job.paytable, job.columns)
    n = job.n_columns
    ev_limit, ev_all, bets_limit = [Fraction(0)] * n, [Fraction(0)] * n, [Fraction(0)] * n
    bets_all = Fraction(0)
    priced = tqdm(
        played.items(), total=len(played), unit=" shoes", desc="pricing", **bar_options(progress)
    )
    for left, by_round in priced:
        results = analyze(paytable=single, shoe=Shoe(np.array(left))).results
        ev = {(r.bet.id, r.mode): r.expected_value for r in results}
        total = sum(by_round.values(), Fraction(0))
        bets_all += total
        for c, column in enumerate(job.columns):
            cap = job.max_rounds[c]
            offered = sum((p for k, p in by_round.items() if cap is None or k <= cap), Fraction(0))
            ev_all[c] += total * ev[column]
            ev_limit[c] += offered * ev[column]
            bets_limit[c] += offered
    top = off_the_top(job)
    records = []
    for c, (bet_id, mode) in enumerate(job.columns):
        record: dict[str, Any] = {
            "bet": bet_id,
            "name": job.paytable.bet(bet_id, mode).display_name(),
            "mode": mode,
            "max_round": job.max_rounds[c],
            "rounds_per_shoe": bets_all,
            "rtp_off_the_top": top[c],
        }
        for key, ev, bets in (
            ("with_limit", ev_limit[c], bets_limit[c]),
            ("without_limit", ev_all[c], bets_all),
        ):
            record[key] = exact_figures(bets, ev, top[c])
        records.append(record)
    return records


def _check_round_sizes(counts: tuple[int, ...], rule: DealRule, per_round: int) -> None:
    """Refuse, before any work, a shoe whose last round can start with fewer cards than
    the exact analysis takes (:data:`~analyzer.game.shoe.ROUND_CARDS`, punto banco's
    most): it prices each round's composition."""
    size = sum(counts)
    burns = {0} if rule.burn == "none" else set()
    for r in range(N_RANKS if rule.burn != "none" else 0):
        if counts[r]:
            burns.add(rule.burned(int(RANK_VALUES[r])))
    starts = np.array(sorted(burns), dtype=np.int64)
    rounds = family_rounds(starts, size, rule, per_round)
    dealt = rounds > 0
    if not dealt.any():
        return
    fewest = int((size - starts - (rounds - 1) * per_round)[dealt].min())
    if fewest < ROUND_CARDS:
        raise AnalyzerError(
            f"--exact prices each round by the exact analysis, which takes {ROUND_CARDS} cards "
            f"or more; here a round can start with {fewest} cards left: leave more cards "
            "behind the cut card (--cut-card), or sample the shoe (--shoes)"
        )
