"""What a run of shoes (``simulate``, ``count``) needs before and while it deals: its
bounds, how the shoes are dealt, the exact work weighed in before any shoe is dealt, and
its partitions run, saved and resumed. The command line and the Python API both call
these, so both refuse the same runs with the same words and give the same figures.

This module is imported when the command line is parsed (its bounds are the options'):
it loads the analysis, pandas and Numba only inside the functions that use them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.errors import AnalyzerError
from analyzer.game.rules import STANDARD_MIXTURE, Mixture
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import Bet, Paytable
from analyzer.runs import LAST_ROUND_RULES

if TYPE_CHECKING:  # the dealer loads Numba
    from analyzer.runs.dealer import Procedure
    from analyzer.runs.runner import Result

#: Shoes per partition: the unit of work, saving and resuming.
DEFAULT_PARTITION_SIZE = 250
#: Rows per partition of a partitioned audit: about a minute of work on one core.
DEFAULT_PARTITION_ROWS = 1_000_000
#: Cards left behind the cut card.
DEFAULT_CUT_CARD = 14

#: Bounds of the run options: generous, but each one a size the machine can hold.
MAX_SHOES = 10**9
MAX_PARTITIONS = 10**6
#: A partition's rounds and results are held in memory until it is saved: 10,000 shoes
#: is some 800,000 rounds (tens of MB of round fields), and a few numbers per bet per shoe.
MAX_PARTITION_SIZE = 10**4
#: The most memory one partition may take while it is worked out (each job estimates its
#: own: ``job.partition_bytes(shoes)``), one partition per worker at a time.
MAX_PARTITION_BYTES = 2**30
MAX_WORKERS = 256
MAX_SEED = 2**64 - 1
MAX_TAG = 1000
MAX_THRESHOLD = 10**6
#: The default largest gain per shoe a count's max-round advice accepts, in units: about
#: one unit in a hundred shoes (some 75 hours of one live table), below what makes
#: counting a bet worth a player's time at any stake a table takes, and within what
#: 100,000 shoes resolve (see the README).
DEFAULT_MAX_GAIN = 0.01
MAX_MAX_GAIN = 10**6


def run_procedure(
    paytable: Paytable,
    shoes: int,
    partition_size: int,
    decks: Any = None,
    cut_card: int = DEFAULT_CUT_CARD,
    last_round: str = LAST_ROUND_RULES[0],
    scheduler: str | None = None,
) -> Procedure:
    """How the shoes are dealt (``decks``: None, the paytable's), with the partitions and
    the scheduler's address checked before any work or folder."""
    from analyzer.runs.dealer import Procedure

    if scheduler is not None:
        from analyzer.runs.runner import scheduler_address

        scheduler_address(scheduler)
    partitions = -(-shoes // partition_size)
    if partitions > MAX_PARTITIONS:
        raise AnalyzerError(
            f"--shoes {shoes:,} in partitions of {partition_size:,} makes "
            f"{partitions:,} partitions (at most {MAX_PARTITIONS:,}): raise --partition-size"
        )
    return Procedure(decks or paytable.decks, cut_card, last_round=last_round)


def check_exact_work(
    bets: list[Bet],
    procedure: Procedure,
    shoes: int | None = None,
    tags: bool = False,
    mixture: Mixture = STANDARD_MIXTURE,
) -> None:
    """The exact work of a run beside its dealing, weighed in all before any shoe is
    dealt or folder made: an exact analysis of ``bets`` on a full shoe (simulate's exact
    EVs), with ``tags`` the effects of removal a count derives its tags from, and with
    ``shoes`` (count) the exact EV of every round dealt: compiling the bets on the cards
    into terms, or walking each round where a walk is too long to compile. ``mixture``:
    the pure tableaus the rules are played by (a paytable's), each walked and compiled."""
    from analyzer.analysis.budget import card_walks, check_analyses, check_visits
    from analyzer.analysis.eor import needs_suits, removal_visits
    from analyzer.engine.batch import compiled_per_process, walked_per_composition
    from analyzer.engine.card_walk import COMPILING

    shoe = Shoe.standard(procedure.decks)
    check_analyses(bets, shoe, mixture=mixture)
    if shoes is not None:
        rounds = shoes * (procedure.cards // 4)  # at most: a round takes 4 cards or more
        visits = rounds * walked_per_composition(bets) + COMPILING * compiled_per_process(bets)
        visits *= len(mixture)
        if tags:
            by_card = any(needs_suits(bet) for bet in bets)
            walks = card_walks(bets, shoe, mixture)
            visits += removal_visits(walks, 1 + (52 if by_card else 13))
        check_visits(  # (each worker compiles the terms once, side by side)
            visits,
            f"counting up to {rounds:,} rounds with the exact EV of each",
            "count fewer shoes (--shoes), or count the other bets apart",
        )


def check_game_work(
    paytable: Paytable, bets: list[Bet], dealt: Procedure | Shoe, what: str = "count"
) -> None:
    """A count (or ``what``: ``dealt``) of ``bets`` on a paytable of another game of the
    family, weighed before any shoe is dealt: a game dealt once (one whose hands draw or
    decide is refused), its multipliers' unknowns given values, the deal walk its exact
    analyses take on the shoe ``dealt`` (a procedure's full decks, or a shoe) (the
    effects of removal, the thresholds, the bets compiled), and the terms every round's
    exact EV sums (:func:`~analyzer.engine.game_batch.check_round_terms`). Compiled, a
    round costs about what punto banco's compiled bets do, so the shoes are not weighed:
    a run takes time in proportion to them, as punto banco's does."""
    from analyzer.analysis.exact import check_known
    from analyzer.engine.deal_walk import check_deal_walk
    from analyzer.engine.game_batch import check_dealt_once, check_round_terms

    game = paytable.game
    check_dealt_once(game, f"{paytable.source}: {what}")
    check_known(paytable)
    fields = frozenset().union(*(bet.fields for bet in bets))
    shoe = dealt if isinstance(dealt, Shoe) else Shoe.standard(dealt.decks)
    check_deal_walk(game, shoe, fields)
    check_round_terms(game, bets)


def partition_sizes(shoes: int, partition_size: int) -> list[int]:
    """The shoes of each partition: ``partition_size`` each, the last one the rest."""
    sizes = [partition_size] * (shoes // partition_size)
    if shoes % partition_size:
        sizes.append(shoes % partition_size)
    return sizes


def check_partition_memory(sizes: list[int], job: Any) -> None:
    """Refuse partitions whose estimated memory (``job.partition_bytes``) is over
    :data:`MAX_PARTITION_BYTES`, naming the largest size that fits: before any work."""
    largest = max(sizes)
    held = job.partition_bytes(largest)
    if held > MAX_PARTITION_BYTES:
        fits = MAX_PARTITION_BYTES // job.partition_bytes(1)  # (linear in the shoes)
        advice = f"lower --partition-size to {fits:,}" if fits else "choose fewer bets"
        raise AnalyzerError(
            f"--partition-size {largest:,} with {job.n_columns:,} bets needs about "
            f"{held / 1e6:,.0f} MB of memory per partition (at most "
            f"{MAX_PARTITION_BYTES / 1e6:,.0f} MB): {advice}"
        )


def run_job(
    task: Any,
    job: Any,
    check: Any,
    sizes: list[int],
    work_dir: str | Path,
    *,
    resume: bool = False,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: bool | None = None,
) -> list[Result]:
    """Run ``task(job, index, shoes)`` over the partitions of ``sizes``, saved in
    ``work_dir`` under a hash of everything the result depends on (partition sizes
    included); see :func:`analyzer.runs.runner.run_partitions`."""
    from analyzer.runs.runner import run_folder, run_partitions

    check_partition_memory(sizes, job)
    identity = {**job.identity, "partitions": sizes}
    return run_partitions(
        task,
        job,
        sizes,
        run_folder(Path(work_dir), identity),
        identity,
        resume=resume,
        scheduler=scheduler,
        workers=workers,
        progress=progress,
        description=identity["command"],
        unit="shoes",
        check=check,
    )
