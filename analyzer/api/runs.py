"""Shoes dealt and logs read, from Python: :func:`simulate`, :func:`count`, :func:`dealt`,
:func:`audit`, and the unknowns published figures allow: :func:`fit`.

Each function takes the options of its command (``baccarat-odds simulate`` ...), named in
Python style with the same defaults, calls the same functions beneath and returns a
result whose :meth:`to_dict` holds the figures ``--format json`` prints and whose
:meth:`to_frame` is a table of them (a notebook shows it). Two defaults differ from the
command line's, for a notebook: no progress bar (``progress=False``), and the shoes are
dealt in this process (``workers=1``), their partitions saved in a temporary folder
removed afterwards (``work_dir=None``; name a folder to keep them and ``resume``).

Bad input raises :class:`~analyzer.errors.AnalyzerError` with a one-line message.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.api.results import TableResult
from analyzer.errors import AnalyzerError, tell
from analyzer.game.rules import Strategy, parse_strategy
from analyzer.game.shoe import INFINITE, MAX_DECKS, Decks, Shoe, decks_problem
from analyzer.paytables.library import SEED_GAME, as_paytable
from analyzer.paytables.model import Paytable, with_values
from analyzer.runs import LAST_ROUND_RULES, TRUE_COUNT_DECKS
from analyzer.runs.jobs import (
    DEFAULT_CUT_CARD,
    DEFAULT_MAX_GAIN,
    DEFAULT_PARTITION_SIZE,
    MAX_PARTITION_SIZE,
    MAX_SEED,
    MAX_SHOES,
    MAX_WORKERS,
)
from analyzer.schema import given_number, given_unknowns
from analyzer.words import counted

if TYPE_CHECKING:
    import pandas as pd

    from analyzer.analysis.audit import AuditResult
    from analyzer.analysis.audit_groups import GroupsResult, MonitorRow
    from analyzer.analysis.fit import FitResult as FittedSet
    from analyzer.analysis.fit import FittedClaim
    from analyzer.analysis.shuffle_tests import ShuffleResult
    from analyzer.runs.dealer import Procedure

__all__ = [
    "AuditReport",
    "CountStudy",
    "DealtRTP",
    "FitResult",
    "Simulation",
    "audit",
    "count",
    "dealt",
    "fit",
    "simulate",
]

PaytableSpec = str | os.PathLike | Paytable


# -- What every function checks ---------------------------------------------------------------


def _played(
    spec: PaytableSpec,
    strategy: Strategy | str | None,
    jackpot: Fraction | int | str | None,
    unknowns: Mapping[str, Fraction | int | str] | None,
    what: str,
    every_game: bool = False,
    decided: bool = False,
) -> Paytable:
    """The paytable with its unknowns, jackpot meter and strategy as given (as
    ``--unknowns``, ``--jackpot`` and ``--strategy`` make it), for ``what`` (a function:
    unless it takes ``every_game``, a paytable of a game other than punto banco is
    refused, one line; unless it takes ``decided``, so is a punto banco paytable with a
    player's ``[decision]``)."""
    paytable = as_paytable(spec)
    if not every_game:
        paytable.require_punto_banco(what)
    if not decided:
        paytable.require_played_as_dealt(what)
    paytable = with_values(
        paytable,
        unknowns=None if unknowns is None else given_unknowns(unknowns),
        jackpot=None if jackpot is None else given_number(jackpot, "jackpot", "the meter"),
        prefix="",
    )
    if isinstance(strategy, str):
        if strategy.strip().lower() == "best":
            from analyzer.analysis.strategy import told_best_strategy

            strategy = told_best_strategy(paytable, None, tell)
        else:
            strategy = parse_strategy(strategy, "strategy")
    if strategy is not None:
        paytable = paytable.with_strategy(strategy)
    paytable.mixture  # noqa: B018 - undecided cells are one line before any work
    return paytable


def _whole(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise AnalyzerError(f"{name}: must be a whole number, got {value!r:.40}")
    if not low <= value <= high:
        raise AnalyzerError(f"{name}: must be from {low:,} to {high:,}, got {value:,}")
    return value


def _maybe_whole(value: object, name: str, low: int, high: int) -> int | None:
    return None if value is None else _whole(value, name, low, high)


def _decks(value: object) -> Decks | None:
    if value is None or value == INFINITE:
        return value  # type: ignore[return-value]
    if isinstance(value, str) and value.strip().lower() in ("inf", "infinite"):
        return INFINITE
    if isinstance(value, bool) or not isinstance(value, int):
        raise AnalyzerError(f"decks: a whole number of decks or 'inf', got {value!r:.40}")
    if not 1 <= value <= MAX_DECKS:
        raise AnalyzerError(f"decks: {decks_problem(value)}")
    return value


def _choice(value: object, name: str, choices: Sequence[str]) -> str:
    if value not in choices:
        raise AnalyzerError(f"{name}: one of {', '.join(choices)}, got {value!r:.40}")
    return value  # type: ignore[return-value]


def _number(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
        raise AnalyzerError(f"{name}: must be a number, got {value!r:.40}")
    value = float(value)
    if value != value or value in (float("inf"), float("-inf")):
        raise AnalyzerError(f"{name}: must be a finite number, got {value!r}")
    return value


def _share(value: object, name: str) -> float:
    """A share strictly between 0 and 1: a number (``0.95``) or a percentage
    (``"95%"``), as ``--confidence`` and ``--deviation`` take it."""
    if isinstance(value, str):
        text = value.strip()
        try:
            share = float(text.removesuffix("%")) / (100 if text.endswith("%") else 1)
        except ValueError:
            share = float("nan")
    else:
        share = _number(value, name)
    if not 0 < share < 1:
        raise AnalyzerError(
            f"{name}: must be between 0 and 1, or 0% and 100% (e.g. 95% or 0.95), got {value!r:.40}"
        )
    return share


def _path(value: object, name: str) -> str:
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value:
        raise AnalyzerError(f"{name}: give a file's path, got {value!r:.40}")
    return value


def _json_ready(data: Any) -> Any:
    """``data`` as ``--format json`` prints it, read back: plain lists, dicts, numbers
    and text, NaN as None."""
    from analyzer.reports.formats import json_text

    return json.loads(json_text(data))


@contextmanager
def _work_dir(work_dir: str | os.PathLike | None) -> Iterator[str]:
    """The folder the partitions are saved in: ``work_dir``, or a temporary one removed
    once the run is over."""
    if work_dir is not None:
        yield _path(work_dir, "work_dir")
        return
    with tempfile.TemporaryDirectory(prefix="baccarat-odds-run-") as folder:
        yield folder


class _Run:
    """The options of a run of shoes, checked (``simulate`` and ``count`` share them)."""

    def __init__(
        self,
        paytable: Paytable,
        shoes: object,
        seed: object,
        decks: object,
        cut_card: object,
        last_round: object,
        partition_size: object,
        workers: object,
        scheduler: object,
        resume: object,
        work_dir: object,
    ) -> None:
        from analyzer.runs.jobs import partition_sizes, run_procedure

        self.shoes = _whole(shoes, "shoes", 1, MAX_SHOES)
        self.seed = _whole(seed, "seed", 0, MAX_SEED)
        self.partition_size = _whole(partition_size, "partition_size", 1, MAX_PARTITION_SIZE)
        self.workers = _maybe_whole(workers, "workers", 1, MAX_WORKERS)
        if scheduler is not None and not isinstance(scheduler, str):
            raise AnalyzerError(f"scheduler: an address tcp://HOST:PORT, got {scheduler!r:.40}")
        self.scheduler = scheduler
        self.resume = bool(resume)
        if self.resume and work_dir is None:
            raise AnalyzerError("resume: name the work_dir whose saved partitions to keep")
        self.work_dir = work_dir
        self.procedure: Procedure = run_procedure(
            paytable,
            self.shoes,
            self.partition_size,
            _decks(decks),
            _whole(cut_card, "cut_card", 0, 52 * MAX_DECKS),
            _choice(last_round, "last_round", LAST_ROUND_RULES),
            self.scheduler,
        )
        self.sizes = partition_sizes(self.shoes, self.partition_size)

    def run(self, task: Any, job: Any, check: Any, progress: bool) -> list:
        from analyzer.runs.jobs import run_job

        with _work_dir(self.work_dir) as folder:
            return run_job(
                task,
                job,
                check,
                self.sizes,
                folder,
                resume=self.resume,
                scheduler=self.scheduler,
                workers=self.workers,
                progress=bool(progress),
            )


# -- simulate ---------------------------------------------------------------------------------


class Simulation(TableResult):
    """Shoes dealt and every bet on offer settled, beside each bet's exact EV: what
    :func:`simulate` returns.

    Attributes
    ----------
    paytable : str
        The paytable's name.
    shoes : int
        The shoes dealt.
    rounds : int
        The rounds they held.
    seed : int
        The random seed.
    decks : int
        The shoe's decks (the paytable's unless given).
    cut_card : int
        Where the cut card was placed.
    bets : list of dict
        Per bet and mode: ``rounds_bet``, ``mean_return`` with its ``std_error`` and 95%
        interval (``ci95_low``, ``ci95_high``), ``exact_ev``, ``z`` and ``max_round``, as
        ``simulate --format json`` prints them (the estimates are floats by nature; NaN
        where there is no spread over shoes).
    exact_evs : dict
        Per ``(bet id, mode)``, the exact EV of a round from a full shoe, a Fraction.
    warnings : list of dict
        The bets settled in no round, and those settled in fewer than 100, as
        ``simulate`` warns of them and its JSON gives them under ``warnings``: each a
        ``kind`` (``no_rounds`` or ``few_rounds``), the ``bets`` concerned (``bet``,
        ``mode``, ``rounds``) and a one-line ``message``; empty when there is none.

    Examples
    --------
    >>> from analyzer import simulate
    >>> run = simulate(shoes=2, seed=1)
    >>> run.exact_evs["tie", "commission"]
    Fraction(-103841353768, 723147898655)
    """

    def __init__(
        self,
        paytable: str,
        shoes: int,
        rounds: int,
        seed: int,
        decks: int,
        cut_card: int,
        bets: list[dict[str, Any]],
        exact_evs: dict[tuple[str, str], Fraction],
        document: dict[str, Any] | None = None,
        warnings: list[dict[str, Any]] | None = None,
    ) -> None:
        self.paytable = paytable
        self.shoes = shoes
        self.rounds = rounds
        self.seed = seed
        self.decks = decks
        self.cut_card = cut_card
        self.bets = bets
        self.exact_evs = exact_evs
        self.warnings = [] if warnings is None else warnings
        self._document = document

    def to_dict(self) -> dict[str, Any]:
        """The figures as ``baccarat-odds simulate --format json`` prints them (the
        simulate contract: see the JSON outputs reference)."""
        return _json_ready(self._document)

    def to_frame(self) -> pd.DataFrame:
        """A row per bet and mode: the JSON's figures (``exact_ev`` a float, as printed;
        :attr:`exact_evs` holds it exact)."""
        import pandas as pd

        return pd.DataFrame(self.bets)

    def __repr__(self) -> str:
        return (
            f"<Simulation of {self.paytable}: {counted(self.shoes, 'shoe')} of "
            f"{counted(self.decks, 'deck')}, "
            f"{self.rounds:,} rounds, seed {self.seed}, {len(self.bets)} bets>"
        )


def simulate(
    paytable: PaytableSpec = SEED_GAME,
    *,
    shoes: int,
    seed: int = 0,
    decks: int | str | None = None,
    cut_card: int = DEFAULT_CUT_CARD,
    last_round: str = LAST_ROUND_RULES[0],
    strategy: Strategy | str | None = None,
    jackpot: Fraction | int | str | None = None,
    unknowns: Mapping[str, Fraction | int | str] | None = None,
    partition_size: int = DEFAULT_PARTITION_SIZE,
    workers: int | None = 1,
    scheduler: str | None = None,
    work_dir: str | os.PathLike | None = None,
    resume: bool = False,
    log: str | os.PathLike | None = None,
    shuffle: str = "perfect",
    progress: bool = False,
) -> Simulation:
    """Deal whole shoes and settle every bet on offer: each bet's mean return with its
    95% interval beside its exact EV (``baccarat-odds simulate``).

    Parameters
    ----------
    paytable : str, path or Paytable, default "seed-game"
        A shipped paytable's name, a paytable file, or a :class:`~analyzer.Paytable`:
        punto banco or another game of the family (``"dragon-tiger"``: dealt in rounds
        of its own cards; its ``log`` names its hands' cards). Random multipliers (special
        cards, or a game's Lightning suits) are drawn for every round from the seed. A
        punto banco paytable with a ``[decision]`` (``"peek-baccarat"``, its ``unknowns``
        given) has each round show cards drawn by the chances of its ``shown``, and each
        bet of the decision raised as its exact strategy on a full shoe plays them (or as
        :func:`~analyzer.with_decisions` gives the play), without a ``log``.
    shoes : int
        Shoes to deal, 1 to 10**9.
    seed : int, default 0
        The random seed, 0 to 2**64 - 1: the same seed deals the same shoes.
    decks : int or "inf", optional
        52-card decks in the shoe (default: the paytable's).
    cut_card : int, default 14
        Cards left behind the cut card.
    last_round : {"cut-card", "one-more"}, default "cut-card"
        When the cut card comes out: that round is the last, or one more is dealt.
    strategy : Strategy or str, optional
        How the rules' decision cells are played (``"player:5=draw"``, or ``"best"``:
        each hand's cells for its own bet's EV); default: the paytable's.
    jackpot : number, optional
        The meter of the paytable's progressive jackpots, in stakes.
    unknowns : mapping, optional
        Values of the unknowns of the paytable's multipliers, or of its decision's cards
        shown (``{"p": "1/4"}``): every one is needed, the multipliers and the cards
        shown being drawn by their chances.
    partition_size : int, default 250
        Shoes per partition: the unit of work and of saving (the figures depend on it,
        as the command line's do).
    workers : int or None, default 1
        Local processes dealing partitions; None: one per core.
    scheduler : str, optional
        A Dask scheduler's address (``tcp://HOST:PORT``) to deal the partitions on.
    work_dir : str or path, optional
        Where finished partitions are kept; default: a temporary folder, removed after.
    resume : bool, default False
        Keep the partitions an interrupted run saved in ``work_dir``; deal the rest.
    log : str or path, optional
        Also write every round dealt to this file (``.csv`` or ``.parquet``) as
        :func:`audit` reads it (dealt in this process: not with ``resume``, a
        ``scheduler`` or several ``workers``).
    shuffle : str, default "perfect"
        How each shoe is shuffled (``--shuffle``): ``"perfect"``, or ``"riffle:K"``, each
        partition's shoes dealt as one table's, each after the first the cards of the shoe
        before given K riffles (punto banco only).
    progress : bool, default False
        Show a progress bar.

    Returns
    -------
    Simulation
        The figures ``simulate --format json`` prints; ``to_frame()``: a row per bet.

    Raises
    ------
    AnalyzerError
        An option out of range, a paytable that cannot be read or simulated (unknowns
        left without values; a log of a paytable with a ``[decision]``), a log that
        cannot be written, or a run too large.

    Examples
    --------
    >>> from analyzer import simulate
    >>> run = simulate(shoes=2, seed=1)
    >>> run.shoes, run.rounds
    (2, ...)
    >>> run.to_frame()[["bet", "mode", "rounds_bet"]].head(2)
          bet           mode  rounds_bet
    0  player     commission         ...
    1  player  no_commission         ...
    """
    from analyzer.reports.outputs import simulate_options, simulation_data
    from analyzer.reports.tables import with_names
    from analyzer.runs.few_rounds import simulation_warnings
    from analyzer.runs.simulate import (
        SimulationJob,
        check_simulate_partition,
        check_simulation,
        exact_evs,
        shuffle_riffles,
        simulate_partition,
        simulated_rounds,
        simulation_summary,
    )

    played = _played(
        paytable, strategy, jackpot, unknowns, "simulate()", every_game=True, decided=True
    )
    run = _Run(
        played, shoes, seed, decks, cut_card, last_round, partition_size, workers, scheduler,
        resume, work_dir,
    )  # fmt: skip
    try:
        riffles = shuffle_riffles(shuffle)
    except AnalyzerError as error:
        raise AnalyzerError(f"shuffle: {error}") from None
    check_simulation(played, run.procedure, log=log is not None)
    if log is not None:
        from analyzer.runs.round_log import check_log_run, simulate_to_log

        log = _path(log, "log")
        check_log_run(log, run.resume, run.scheduler, run.workers)
        job = SimulationJob(played, run.procedure, run.seed, logged=True, riffles=riffles)
        results = simulate_to_log(job, run.sizes, log, bool(progress))
    else:
        job = SimulationJob(played, run.procedure, run.seed, riffles=riffles)
        results = run.run(simulate_partition, job, check_simulate_partition, progress)
    exact = exact_evs(played, run.procedure)
    summary = with_names(simulation_summary(played, run.procedure, results, exact), played)
    rounds = simulated_rounds(results)
    bets = summary.to_dict("records")
    warnings = simulation_warnings(bets)
    options = simulate_options(
        played, run.procedure, run.shoes, run.seed, run.partition_size, riffles
    )
    return Simulation(
        played.name,
        run.shoes,
        rounds,
        run.seed,
        run.procedure.decks,
        run.procedure.cut_card,
        bets,
        exact,
        simulation_data(played, run.procedure, options, rounds, bets, warnings),
        warnings,
    )


# -- count ------------------------------------------------------------------------------------


class CountStudy(TableResult):
    """A count against one bet or many: what :func:`count` returns.

    Attributes
    ----------
    paytable : str
        The paytable's name.
    shoes : int
        The shoes dealt.
    seed : int
        The random seed.
    rounds_per_shoe : float
        The mean rounds a shoe held.
    records : list of dict
        Per bet and mode counted, the figures ``count --format json`` prints: the
        strategy, bet frequency, edge when bet, units per shoe and per 100 rounds (each
        with its standard error) with and without the max round, the gain by max round
        and each play's max-round advice (estimates over shoes: floats).
    per_round : pandas.DataFrame
        Per round number and bet: the mean exact EV and the shares bet, as ``--out``
        writes them.
    warnings : list of dict
        The bets the strategy never bet on, and those it bet on fewer than 100 rounds,
        as ``count`` warns of them and its JSON gives them under ``warnings``: each a
        ``kind`` (``no_rounds`` or ``few_rounds``), the ``bets`` concerned (``bet``,
        ``mode``, ``rounds``) and a one-line ``message``; empty when there is none.

    Examples
    --------
    >>> from analyzer import count
    >>> study = count(shoes=2, bets="tie")
    >>> study.shoes, study.to_frame().index.size
    (2, 1)
    """

    def __init__(
        self,
        paytable: str,
        shoes: int,
        seed: int,
        rounds_per_shoe: float,
        records: list[dict[str, Any]],
        per_round: pd.DataFrame,
        document: dict[str, Any] | None = None,
        warnings: list[dict[str, Any]] | None = None,
    ) -> None:
        self.paytable = paytable
        self.shoes = shoes
        self.seed = seed
        self.rounds_per_shoe = rounds_per_shoe
        self.records = records
        self.per_round = per_round
        self.warnings = [] if warnings is None else warnings
        self._document = document

    def to_dict(self) -> dict[str, Any]:
        """The figures as ``baccarat-odds count --format json`` prints them (the count
        contract: a row per bet and mode under ``bets``, one bet or many)."""
        return _json_ready(self._document)

    def to_frame(self) -> pd.DataFrame:
        """A row per bet and mode counted, its record spread into columns
        (``with_limit_units_per_shoe``, ``advice_perfect_largest_safe_max_round``...;
        the curves by max round are in ``records``)."""
        import pandas as pd

        from analyzer.runs.count_plan import flat_record

        return pd.DataFrame([flat_record(record) for record in self.records])

    def __repr__(self) -> str:
        return (
            f"<CountStudy of {self.paytable}: {len(self.records)} bets, {self.shoes:,} shoes, "
            f"{self.rounds_per_shoe:.2f} rounds per shoe, seed {self.seed}>"
        )


def count(
    paytable: PaytableSpec = SEED_GAME,
    *,
    shoes: int,
    bets: str | Sequence[str],
    mode: str | None = None,
    seed: int = 0,
    decks: int | str | None = None,
    cut_card: int = DEFAULT_CUT_CARD,
    last_round: str = LAST_ROUND_RULES[0],
    tags: str | None = None,
    threshold: float | None = None,
    true_count_decks: str | None = None,
    perfect: bool = False,
    no_max_round: bool = False,
    max_gain: float = DEFAULT_MAX_GAIN,
    rounds_per_hour: float | None = None,
    strategy: Strategy | str | None = None,
    jackpot: Fraction | int | str | None = None,
    unknowns: Mapping[str, Fraction | int | str] | None = None,
    partition_size: int = DEFAULT_PARTITION_SIZE,
    workers: int | None = 1,
    scheduler: str | None = None,
    work_dir: str | os.PathLike | None = None,
    resume: bool = False,
    progress: bool = False,
) -> CountStudy:
    """Which bets can a card counter beat? Deal whole shoes, work out every round's exact
    EV of each bet on the cards left, and bet it by perfect play and by a linear count,
    with and without its max round (``baccarat-odds count``).

    Parameters
    ----------
    paytable : str, path or Paytable, default "seed-game"
        A shipped paytable's name, a paytable file, or a :class:`~analyzer.Paytable`: of
        punto banco, of a game of the family dealt once (Dragon Tiger, Three Card
        Baccarat), or with a player's decision (Lucky Draw, Peek Baccarat: each round's
        best play solved on its cards, at most 20,000 rounds a run).
    shoes : int
        Shoes to deal, 1 to 10**9.
    bets : str or sequence of str
        The bets to count (ids), or ``"all"``: every bet of the paytable, on the same shoes.
    mode : str, optional
        The betting mode, or ``"all"``; default: the paytable's first.
    seed : int, default 0
        The random seed, 0 to 2**64 - 1.
    decks : int or "inf", optional
        52-card decks in the shoe (default: the paytable's).
    cut_card : int, default 14
        Cards left behind the cut card.
    last_round : {"cut-card", "one-more"}, default "cut-card"
        When the cut card comes out: that round is the last, or one more is dealt.
    tags : str, optional
        Linear count tags, ``"A=0,2=1,...,K=-1"``, for every bet counted (default: derived
        per bet from its effects of removal, balanced: their sum over the shoe is 0).
    threshold : float, optional
        Bet when the true count is at least this (default: the tags' break-even, per bet).
    true_count_decks : {"in-shoe", "unseen"}, optional
        What the true count divides by (default ``"in-shoe"``).
    perfect : bool, default False
        Perfect play only: bet exactly when the exact EV is positive (no tags).
    no_max_round : bool, default False
        Headline figures without the max-round limit (both are kept).
    max_gain : float, default 0.01
        The largest gain per shoe (units) the max-round advice accepts.
    rounds_per_hour : float, optional
        Rounds dealt an hour: each play's win and standard deviation per hour (default:
        none; DI, N0 and the standard deviation per round are given whatever it is).
    strategy, jackpot, unknowns : optional
        As for :func:`simulate`.
    partition_size, workers, scheduler, work_dir, resume, progress : optional
        As for :func:`simulate`.

    Returns
    -------
    CountStudy
        The figures ``count --format json`` prints; ``to_frame()``: a row per bet.

    Raises
    ------
    AnalyzerError
        An unknown bet or mode, an option out of range, tags that cannot be read, a bet
        no linear count helps (counted alone, without ``perfect``), a game whose hands
        draw or decide, multipliers with unknowns left, or a run too large.

    Examples
    --------
    >>> from analyzer import count
    >>> study = count(shoes=3, bets="lucky_six", perfect=True)
    >>> study.shoes, study.records[0]["strategy"]
    (3, 'perfect play (bet when the exact EV is positive)')
    >>> list(study.to_frame()["bet"])
    ['lucky_six']
    >>> dragon_tiger = count("dragon-tiger", shoes=2, bets=["tie", "suited_tie"], perfect=True)
    >>> list(dragon_tiger.to_frame()["name"]), round(dragon_tiger.rounds_per_shoe)
    (['Tie', 'Suited Tie'], 198)
    """
    from analyzer.reports.outputs import count_data, count_options
    from analyzer.runs.count_plan import (
        check_max_gain,
        check_rounds_per_hour,
        count_columns,
        count_job,
        count_record,
        second_moments,
    )
    from analyzer.runs.counting import count_partition, count_summary, per_round_table
    from analyzer.runs.few_rounds import count_warnings

    played = _played(
        paytable, strategy, jackpot, unknowns, "count()", every_game=True, decided=True
    )
    if isinstance(bets, str):
        bets = [bets]
    if not bets or not all(isinstance(bet, str) for bet in bets):
        raise AnalyzerError('bets: give bet ids (a list of text), or "all"')
    if mode is not None and not isinstance(mode, str):
        raise AnalyzerError(f"mode: a mode's name or 'all', got {mode!r:.40}")
    columns = count_columns(played, list(bets), mode)
    max_gain = _number(max_gain, "max_gain")
    check_max_gain(max_gain)
    if rounds_per_hour is not None:
        rounds_per_hour = _number(rounds_per_hour, "rounds_per_hour")
    check_rounds_per_hour(rounds_per_hour)
    run = _Run(
        played, shoes, seed, decks, cut_card, last_round, partition_size, workers, scheduler,
        resume, work_dir,
    )  # fmt: skip
    if tags is not None and not isinstance(tags, str):
        raise AnalyzerError(f'tags: text such as "A=0,2=1,...,K=-1", got {tags!r:.40}')
    if true_count_decks is not None:
        _choice(true_count_decks, "true_count_decks", TRUE_COUNT_DECKS)
    job = count_job(
        played,
        columns,
        run.procedure,
        run.seed,
        run.sizes,
        tags=tags,
        threshold=None if threshold is None else _number(threshold, "threshold"),
        true_count_decks=true_count_decks,
        perfect=bool(perfect),
    )
    moments = second_moments(job)
    results = run.run(count_partition, job, job.check, progress)
    summaries = count_summary(job, results, max_gain)
    records = [
        count_record(
            job,
            summary,
            c,
            bool(no_max_round),
            second_moment=moments[c],
            rounds_per_hour=rounds_per_hour,
        )
        for c, summary in enumerate(summaries)
    ]
    options = count_options(
        played,
        run.procedure,
        run.shoes,
        run.seed,
        run.partition_size,
        bets=bets,
        mode=mode,
        tags=tags,
        threshold=None if threshold is None else _number(threshold, "threshold"),
        true_count_decks=job.true_count_decks,
        perfect=bool(perfect),
        no_max_round=bool(no_max_round),
        max_gain=max_gain,
        rounds_per_hour=rounds_per_hour,
    )
    warnings = count_warnings(records)
    return CountStudy(
        played.name,
        summaries[0]["shoes"],
        run.seed,
        summaries[0]["rounds_per_shoe"],
        records,
        per_round_table(job, results),
        count_data(played, run.procedure, options, records, warnings),
        warnings,
    )


# -- dealt ------------------------------------------------------------------------------------


class DealtRTP(TableResult):
    """The round-average RTP a player meets over shoes dealt as live tables deal them, per
    bet and mode, beside the RTP off the top of a full shoe: what :func:`dealt` returns.

    Attributes
    ----------
    paytable : str
        The paytable's name.
    exact : bool
        Whether the figures are exact (every order of a small shoe's cards) rather than
        sampled.
    shoes : int or None
        The shoes dealt (None: exact).
    seed : int or None
        The random seed (None: exact).
    cut_card : int
        Cards left behind the cut card.
    burn : str
        The burn rule: ``by-value``, ``none``, or a number of cards as text.
    last_round : str
        The last-round rule (``cut-card`` or ``one-more``).
    rounds_per_shoe : float or Fraction
        The rounds a shoe deals, on average (a Fraction where exact).
    records : list of dict
        Per bet and mode, as the run gives them: ``bet``, ``name``, ``mode``,
        ``max_round``, ``shoes``, ``rounds_per_shoe``, ``rtp_off_the_top`` (a Fraction),
        and ``with_limit`` and ``without_limit`` (the bet withdrawn after its max round,
        or on offer in every round), each ``rounds_bet_per_shoe``, ``rtp``, ``rtp_se``,
        ``rtp_low``, ``rtp_high`` (its 95% interval) and ``difference`` (``rtp`` less the
        RTP off the top): floats where sampled, Fractions where exact (no error).

    Examples
    --------
    >>> from analyzer import dealt
    >>> tie = dealt(shoes=2, bets="tie", decks=1, seed=1)
    >>> tie.to_frame()[["bet", "max_round"]]
       bet max_round
    0  tie      None
    """

    def __init__(
        self,
        paytable: Paytable,
        exact: bool,
        shoes: int | None,
        seed: int | None,
        rule: Any,
        records: list[dict[str, Any]],
        document: dict[str, Any],
    ) -> None:
        self.paytable = paytable.name
        self.exact = exact
        self.shoes = shoes
        self.seed = seed
        self.cut_card: int = rule.cut_card
        self.burn: str = rule.burn
        self.last_round: str = rule.last_round
        self.records = records
        self.rounds_per_shoe: float | Fraction = records[0]["rounds_per_shoe"]
        self._document = document

    def to_dict(self) -> dict[str, Any]:
        """The figures as ``baccarat-odds dealt --format json`` prints them (the dealt
        contract: exact figures as ``"p/q"`` text)."""
        return _json_ready(self._document)

    def to_frame(self) -> pd.DataFrame:
        """A row per bet and mode: ``bet``, ``name``, ``mode``, ``max_round``,
        ``rounds_per_shoe``, ``rtp_off_the_top``, the figures with the max round
        (``rounds_bet_per_shoe``, ``rtp``, ``rtp_se``, ``rtp_low``, ``rtp_high``,
        ``difference``) and the same prefixed ``without_limit_``; floats (exact figures
        in ``records``)."""
        import pandas as pd

        def number(value: Any) -> Any:
            return float(value) if isinstance(value, Fraction) else value

        rows = []
        for record in self.records:
            row = {
                key: number(record[key])
                for key in ("bet", "name", "mode", "max_round", "rounds_per_shoe")
            }
            row["rtp_off_the_top"] = number(record["rtp_off_the_top"])
            row |= {key: number(v) for key, v in record["with_limit"].items()}
            row |= {f"without_limit_{k}": number(v) for k, v in record["without_limit"].items()}
            rows.append(row)
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        how = "exact" if self.exact else f"{self.shoes:,} shoes, seed {self.seed}"
        return (
            f"<DealtRTP of {self.paytable}: {how}, {float(self.rounds_per_shoe):.2f} rounds "
            f"per shoe, {len(self.records)} bets>"
        )


def dealt(
    paytable: PaytableSpec = SEED_GAME,
    *,
    shoes: int | None = None,
    exact: bool = False,
    bets: str | Sequence[str] | None = None,
    mode: str | None = None,
    seed: int = 0,
    decks: int | None = None,
    shoe: str | os.PathLike | Shoe | None = None,
    cut_card: int = DEFAULT_CUT_CARD,
    burn: str | int = "by-value",
    last_round: str = LAST_ROUND_RULES[0],
    strategy: Strategy | str | None = None,
    jackpot: Fraction | int | str | None = None,
    unknowns: Mapping[str, Fraction | int | str] | None = None,
    partition_size: int = DEFAULT_PARTITION_SIZE,
    workers: int | None = 1,
    scheduler: str | None = None,
    work_dir: str | os.PathLike | None = None,
    resume: bool = False,
    progress: bool = False,
) -> DealtRTP:
    """Is the RTP a player meets over a dealt shoe the printed one? Deal whole shoes as
    live tables do (the first card shown and cards burned, rounds to the cut card, each
    bet withdrawn after its max round) and average each round's exact EV on the cards
    left over the rounds bet, per bet and mode (``baccarat-odds dealt``).

    Parameters
    ----------
    paytable : str, path or Paytable, default "seed-game"
        A shipped paytable's name, a paytable file, or a :class:`~analyzer.Paytable`
        (punto banco, a game of the family dealt once: Dragon Tiger, Lightning Dragon
        Tiger with its ``unknowns``, Three Card Baccarat; or with a player's decision,
        Lucky Draw and Peek Baccarat: each round's best play solved on its cards, at most
        20,000 rounds a run).
    shoes : int, optional
        Shoes to sample, 1 to 10**9; give this or ``exact``, one of them.
    exact : bool, default False
        No sampling: every order of the shoe's point values, each round priced exactly
        with the cards' ranks and suits averaged; the figures are Fractions (shoes up to
        one deck: 34,000,000 compositions by point value; bets on values and pairs).
    bets : str or sequence of str, optional
        The bets (ids), or ``"all"`` (the default): every bet of the paytable.
    mode : str, optional
        The betting mode, or ``"all"``; default: the paytable's first.
    seed : int, default 0
        The random seed, 0 to 2**64 - 1 (sampled only).
    decks : int, optional
        52-card decks in the shoe (default: the paytable's); not with ``shoe``.
    shoe : str, path or Shoe, optional
        The shoe to deal instead of full decks: a shoe file (CSV or TOML, per rank or
        card) or a :class:`~analyzer.Shoe`.
    cut_card : int, default 14
        Cards left behind the cut card.
    burn : str or int, default "by-value"
        Cards burned before round 1: ``"by-value"`` (the first card shown and as many more
        burned as its point value, a ten or face card 10), ``"none"``, or a number N (the
        card shown and N more).
    last_round : {"cut-card", "one-more"}, default "cut-card"
        When the cut card comes out: that round is the last, or one more is dealt.
    strategy, jackpot, unknowns : optional
        As for :func:`simulate`.
    partition_size, workers, scheduler, work_dir, resume, progress : optional
        As for :func:`simulate` (sampled only, but ``work_dir``, ``resume`` and
        ``progress``). With ``exact``, ``work_dir`` keeps each finished pass and
        checkpoints the pass under way (every 5 minutes of work, and on Ctrl-C, when the
        ``Interrupted`` raised says where), and ``resume`` deals on from it; no work is
        kept without ``work_dir``.

    Returns
    -------
    DealtRTP
        The figures ``dealt --format json`` prints; ``to_frame()``: a row per bet and mode.

    Raises
    ------
    AnalyzerError
        Both or neither of ``shoes`` and ``exact``, both ``decks`` and ``shoe``, an unknown
        bet or mode, a bet on suits with a shoe by rank, an option out of range, a shoe
        too large for ``exact``, a run too large, or a game that draws or decides.

    Examples
    --------
    >>> from analyzer import Shoe, dealt
    >>> sampled = dealt(shoes=3, bets=["banker", "tie"], decks=1, cut_card=20, seed=2)
    >>> sampled.to_frame()[["bet", "mode"]]
          bet        mode
    0  banker  commission
    1     tie  commission

    Exactly, for a shoe of twelve cards by rank (A to K), the cut card eight from the end:

    >>> tiny = Shoe([3, 0, 0, 0, 1, 0, 0, 3, 2, 0, 0, 0, 3])
    >>> tie = dealt(exact=True, shoe=tiny, bets="tie", cut_card=8, burn="none")
    >>> tie.records[0]["rtp_off_the_top"], tie.records[0]["with_limit"]["rtp"]
    (Fraction(5757, 6160), Fraction(421371, 456400))
    >>> tie.rounds_per_shoe
    Fraction(163, 99)
    """
    from analyzer.reports.outputs import dealt_data
    from analyzer.runs.as_dealt import (
        DealRule,
        dealt_job,
        dealt_summary,
        exact_record,
        off_the_top,
        parse_burn,
    )
    from analyzer.runs.family_dealt import dealt_task, exact_dealt
    from analyzer.runs.jobs import partition_sizes, run_job

    played = _played(
        paytable, strategy, jackpot, unknowns, "dealt()", every_game=True, decided=True
    )
    exact = bool(exact)
    if exact == (shoes is not None):
        raise AnalyzerError("give shoes (sampled) or exact=True, one of them")
    shoes = None if exact else _whole(shoes, "shoes", 1, MAX_SHOES)
    seed = _whole(seed, "seed", 0, MAX_SEED)
    partition_size = _whole(partition_size, "partition_size", 1, MAX_PARTITION_SIZE)
    if shoe is not None and decks is not None:
        raise AnalyzerError("give decks or shoe, not both")
    if decks is not None:
        decks = _whole(decks, "decks", 1, MAX_DECKS)
    if shoe is not None and not isinstance(shoe, Shoe):
        from analyzer.game.shoe import shoe_from_file

        shoe = shoe_from_file(_path(shoe, "shoe"))
    shoe_given = shoe is not None
    if isinstance(bets, str):
        bets = [bets]
    if bets is not None and (not isinstance(bets, Sequence) or not bets):
        raise AnalyzerError('bets: give bet ids, or "all"')
    if isinstance(burn, bool) or not isinstance(burn, (str, int)):
        raise AnalyzerError(f"burn: by-value, none or a number of cards, got {burn!r:.40}")
    rule = DealRule(
        _whole(cut_card, "cut_card", 0, 52 * MAX_DECKS),
        parse_burn(str(burn)),
        _choice(last_round, "last_round", LAST_ROUND_RULES),
    )
    if scheduler is not None and not isinstance(scheduler, str):
        raise AnalyzerError(f"scheduler: an address tcp://HOST:PORT, got {scheduler!r:.40}")
    if resume and work_dir is None:
        raise AnalyzerError("resume: name the work_dir whose saved partitions to keep")
    job, shoe = dealt_job(
        played, bets, mode, decks=decks, shoe=shoe, rule=rule, seed=seed, exact=exact,
        shoes=shoes, partition_size=partition_size,
    )  # fmt: skip
    if exact:
        exact_records = exact_dealt(
            job, progress=bool(progress), work_dir=work_dir, resume=resume
        )  # one deck's passes kept in work_dir (finished, and partway), taken up by resume
        records = [exact_record(r) for r in exact_records]
    else:
        assert shoes is not None
        with _work_dir(work_dir) as folder:
            results = run_job(
                dealt_task(job),
                job,
                job.check,
                partition_sizes(shoes, partition_size),
                folder,
                resume=bool(resume),
                scheduler=scheduler,
                workers=_maybe_whole(workers, "workers", 1, MAX_WORKERS),
                progress=bool(progress),
            )
        records = dealt_summary(job, results, off_the_top(job))
    document = dealt_data(
        played, job, shoe, records, exact=exact, shoes=shoes, seed=seed,
        partition_size=partition_size, bets=bets, mode=mode, shoe_given=shoe_given,
    )  # fmt: skip
    return DealtRTP(played, exact, shoes, None if exact else seed, rule, records, document)


# -- audit ------------------------------------------------------------------------------------


class AuditReport(TableResult):
    """A log of dealt rounds checked against a paytable, and its fit to the exact odds:
    what :func:`audit` returns. Findings are about the table, not errors.

    Attributes
    ----------
    paytable : str
        The paytable's name.
    rounds : int
        The rounds audited.
    shoes : int
        The shoes they came from.
    findings_total : int
        Everything found (the first 1,000 are listed).
    counts : dict
        Findings by check (``draw``, ``score``, ``winner``, ``cards``, ``order``,
        ``burn``, ``payout``, ``repeat``; another game of the family's: ``deal``, its
        ``draw`` where a hand draws by its own rule, ``action`` where the player
        decides, then ``score`` ... ``repeat``).
    result : AuditResult
        The audit itself (:class:`analyzer.analysis.audit.AuditResult`): findings, and
        the fit's tests and calibration (``result.fit``) where it was run.
    groups : GroupsResult or None
        Each dealer's, table's and studio's rounds, tests and monitoring
        (:class:`analyzer.analysis.audit_groups.GroupsResult`), where the log has
        ``dealer``, ``table`` or ``studio`` columns; None otherwise. ``groups_frame()``:
        a row per group.
    monitoring : tuple of MonitorRow
        Each staked bet's return against its exact RTP over the whole log
        (:class:`analyzer.analysis.audit_groups.MonitorRow`), where the log has
        ``stake:<bet>`` columns; empty otherwise. ``monitoring_frame()``: a row per bet.
    shuffle : ShuffleResult or None
        The tests of the shuffle over consecutive shoes
        (:class:`analyzer.analysis.shuffle_tests.ShuffleResult`), where
        ``shuffle_tests=True``; None otherwise. ``shuffle_frame()``: a row per test.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from analyzer import audit, simulate
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "rounds.csv"
    >>> _ = simulate(shoes=1, seed=2, log=log)
    >>> audit(log, fit=False).counts["draw"]
    0
    """

    def __init__(
        self,
        paytable: Paytable,
        result: AuditResult,
        level: float = 0.01,
        shuffle: ShuffleResult | None = None,
    ) -> None:
        from analyzer.reports.outputs import audit_data

        self.paytable = paytable.name
        self.result = result
        self.rounds = result.rounds
        self.shoes = result.shoes
        self.findings_total = result.total
        self.counts = dict(result.counts)
        self.groups: GroupsResult | None = result.groups
        self.monitoring: tuple[MonitorRow, ...] = result.monitoring
        self.shuffle = shuffle
        self._document = audit_data(result, paytable, level, shuffle)

    @property
    def tests_failed(self) -> int | None:
        """How many tests of the fit failed at its level, after Holm's correction
        (None: the fit was not run)."""
        return None if self.result.fit is None else len(self.result.fit.failed)

    @property
    def shuffle_tests_failed(self) -> int | None:
        """How many tests of the shuffle failed at the level, after Holm's correction
        (None: they were not run)."""
        return None if self.shuffle is None else len(self.shuffle.failed)

    @property
    def groups_failed(self) -> int | None:
        """How many groups are called: a test failed or a bet outside its band (None: the
        log names no dealer, table or studio)."""
        return None if self.groups is None else len(self.groups.failed)

    def to_dict(self) -> dict[str, Any]:
        """The audit as ``baccarat-odds audit --format json`` prints it (the audit
        contract: the findings listed under ``findings``)."""
        return _json_ready(self._document)

    def to_frame(self) -> pd.DataFrame:
        """A row per finding listed: its check, log, row, shoe, round and text."""
        import pandas as pd

        columns = ["check", "log", "row", "shoe", "round", "text"]
        return pd.DataFrame(self._document["findings"], columns=columns)

    def tests_frame(self) -> pd.DataFrame:
        """A row per test of the fit (empty where it was not run): observed, expected,
        statistic, p-value, Holm's p-value and verdict, as JSON shows them."""
        import pandas as pd

        tests = self._document.get("fit", {}).get("tests", [])
        return pd.DataFrame([{k: v for k, v in t.items() if k != "counts"} for t in tests])

    def monitoring_frame(self) -> pd.DataFrame:
        """A row per staked bet (empty where the log gives no stakes): rounds, paid, actual
        and exact RTP, band, Holm's p-value, verdict and rounds needed, as JSON's
        ``monitoring`` shows them."""
        import pandas as pd

        return pd.DataFrame(self._document.get("monitoring", {}).get("bets", []))

    def groups_frame(self) -> pd.DataFrame:
        """A row per dealer, table or studio (empty where the log names none): its column,
        value, rounds, whether it was tested and its tests run and failed, as JSON's
        ``groups`` shows them (each group's tests and monitoring: ``groups``)."""
        import pandas as pd

        groups = self._document.get("groups", {}).get("groups", [])
        return pd.DataFrame(
            [{k: v for k, v in g.items() if k not in ("tests", "monitoring")} for g in groups]
        )

    def shuffle_frame(self) -> pd.DataFrame:
        """A row per test of the shuffle (empty where they were not run): observed,
        expected, statistic, p-value, Holm's p-value and verdict, as JSON's
        ``shuffle_tests`` shows them."""
        import pandas as pd

        return pd.DataFrame(self._document.get("shuffle_tests", {}).get("tests", []))

    def __repr__(self) -> str:
        fit = "" if self.tests_failed is None else f", {self.tests_failed} tests failed"
        if self.groups_failed is not None:
            fit += f", {self.groups_failed} groups called"
        if self.shuffle_tests_failed is not None:
            fit += f", {self.shuffle_tests_failed} shuffle tests failed"
        return (
            f"<AuditReport against {self.paytable}: {self.rounds:,} rounds of "
            f"{self.shoes:,} shoes, {self.findings_total:,} findings{fit}>"
        )


def audit(
    log: str | os.PathLike | Sequence[str | os.PathLike],
    *,
    paytable: PaytableSpec = SEED_GAME,
    decks: int | str | None = None,
    level: float = 0.01,
    fit: bool = True,
    strategy: Strategy | str | None = None,
    jackpot: Fraction | int | str | None = None,
    unknowns: Mapping[str, Fraction | int | str] | None = None,
    partition_rows: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    work_dir: str | os.PathLike | None = None,
    resume: bool = False,
    shuffle_tests: bool = False,
    # (the defaults of analyzer.analysis.audit_groups, written out: imported when run)
    min_group_rounds: int = 200,
    confidence: float | str = 0.95,
    deviation: float | str = 0.005,
    progress: bool = False,
) -> AuditReport:
    """Check a log of the rounds a table dealt against the paytable: drawing rules,
    scores and winner, each shoe's cards, rounds in order, burns, payouts and shoes dealt
    twice; then, unless ``fit=False``, test its fit to the exact odds
    (``baccarat-odds audit``).

    Parameters
    ----------
    log : str, path, or a sequence of them
        The log (CSV with a header row, or Parquet; one row per round, columns as the
        command's help says); several are audited as one.
    paytable : str, path or Paytable, default "seed-game"
        A shipped paytable's name, a paytable file, or a :class:`~analyzer.Paytable`:
        punto banco, or another game of the family (``"dragon-tiger"``: the log names
        its hands' cards, ``dragon_cards`` and ``tiger_cards``, and with a player's
        decision the ``action``).
    decks : int or "inf", optional
        52-card decks in each shoe (default: the paytable's).
    level : float, default 0.01
        The level each test of the fit fails at, after Holm's correction.
    fit : bool, default True
        Test the fit to the exact odds (``False``: the checks only; ``--no-fit``).
    strategy, jackpot, unknowns : optional
        As for :func:`simulate`.
    partition_rows : int, optional
        Rows per partition, about; any of this, ``workers``, ``scheduler``, ``work_dir``
        or ``resume`` audits in saved partitions (default 1,000,000 rows each, in
        ``.baccarat-odds/runs`` unless ``work_dir`` names a folder).
    workers, scheduler, work_dir, resume : optional
        Where and how the partitions run, as for :func:`simulate`.
    shuffle_tests : bool, default False
        Also test the shuffle over each log's consecutive shoes (``--shuffle-tests``):
        each rank's place in the shoe, neighbours of one shoe together again in the next,
        a shoe's first cards against the last of the one before; at ``level`` after
        Holm's correction (punto banco logs).
    min_group_rounds : int, default 200
        A dealer, table or studio of fewer rounds is listed, not tested.
    confidence : float or str, default 0.95
        The monitoring band's confidence, a share (``0.99``) or a percentage (``"99%"``).
    deviation : float or str, default 0.005
        The deviation of a return from its RTP whose rounds needed are given (``0.01``
        or ``"1%"``).
    progress : bool, default False
        Show a progress bar.

    Returns
    -------
    AuditReport
        The figures ``audit --format json`` prints; ``to_frame()``: the findings;
        ``monitoring_frame()``, ``groups_frame()`` and ``shuffle_frame()``: the staked
        bets' returns, the groups and the shuffle tests.

    Raises
    ------
    AnalyzerError
        A log that cannot be read or is malformed, or an option out of range.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from analyzer import audit, simulate
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "rounds.csv"
    >>> _ = simulate(shoes=2, seed=1, log=log)
    >>> report = audit(log)
    >>> report.findings_total, report.tests_failed
    (0, 0)
    >>> report.to_frame().empty
    True

    A log of Dragon Tiger, with a payout logged wrong:

    >>> dragon = pathlib.Path(tempfile.mkdtemp()) / "dragon.csv"
    >>> _ = dragon.write_text(
    ...     "shoe,round,dragon_cards,tiger_cards,winner,pay:dragon\\n"
    ...     "A,1,KS,4H,dragon,1\\n"
    ...     "A,2,7D,7C,tie,1\\n"
    ... )
    >>> checked = audit(dragon, paytable="dragon-tiger", fit=False)
    >>> [(f.row, f.check, f.text) for f in checked.result.findings]
    [(2, 'payout', 'pay:dragon logged 1: the paytable settles it -0.5')]

    The shuffle of a table that riffles the discards once, tested:

    >>> riffled = pathlib.Path(tempfile.mkdtemp()) / "riffled.csv"
    >>> _ = simulate(shoes=6, seed=3, decks=1, shuffle="riffle:1", log=riffled)
    >>> tested = audit(riffled, decks=1, fit=False, shuffle_tests=True)
    >>> tested.shuffle_frame()[["test", "verdict"]]
             test verdict
    0    position    pass
    1    adjacent    FAIL
    2  first_last    FAIL
    >>> tested.shuffle_tests_failed
    2
    """
    from analyzer.runs.audit_run import run_audit

    played = _played(paytable, strategy, jackpot, unknowns, "audit()", every_game=True)
    logs = [log] if isinstance(log, (str, os.PathLike)) else log
    if not isinstance(logs, Sequence) or not logs:
        raise AnalyzerError("log: give a log file's path, or a list of them")
    paths = [_path(path, "log") for path in logs]
    level = _number(level, "level")
    if not 0 < level < 1:
        raise AnalyzerError(f"level: must be between 0 and 1 (e.g. 0.01), got {level!r}")
    min_rounds = _whole(min_group_rounds, "min_group_rounds", 1, 10**9)
    confidence = _share(confidence, "confidence")
    deviation = _share(deviation, "deviation")
    shuffle = None
    if shuffle_tests:  # first: a log they cannot take is refused before the audit
        from analyzer.runs.audit_log import shuffle_tests_of_logs

        shuffle = shuffle_tests_of_logs(paths, played, _decks(decks), level)
    result = run_audit(
        paths,
        played,
        _decks(decks),
        fit=bool(fit),
        level=level,
        partition_rows=_maybe_whole(partition_rows, "partition_rows", 1000, 10**8),
        work_dir=None if work_dir is None else _path(work_dir, "work_dir"),
        resume=bool(resume),
        workers=_maybe_whole(workers, "workers", 1, MAX_WORKERS),
        scheduler=scheduler,
        progress=bool(progress),
        min_rounds=min_rounds,
        confidence=confidence,
        deviation=deviation,
    )
    return AuditReport(played, result, level, shuffle)


# -- fit --------------------------------------------------------------------------------------


class FitResult(TableResult):
    """The values of a paytable's unknowns that published figures allow: what :func:`fit`
    returns.

    Attributes
    ----------
    paytable : str
        The paytable's name.
    unknowns : dict
        Each unknown's range, ``(low, high)`` as Fractions.
    consistent : bool
        Whether any value of the unknowns is consistent with every figure (False: the
        figures contradict the rules as encoded; the command exits 1).
    intervals : dict
        Per unknown, the intervals holding every value consistent with all the figures
        together, each ``(low, high)`` as Fractions: exact where ``exact`` says so, else
        bounds rounded outward.
    exact : bool
        Whether every end of ``intervals`` is exact.
    witness : dict or None
        A point consistent with every figure, checked exactly (Fractions), if one was met.
    each : list
        Each claim's own result (:class:`analyzer.analysis.fit.FittedClaim`).
    together : analyzer.analysis.fit.FitResult
        The set of all claims together, as the analysis gives it.

    Examples
    --------
    >>> from analyzer import fit
    >>> fit("prosperity-tree-baccarat").consistent
    True
    """

    def __init__(self, paytable: Paytable, each: list[FittedClaim], together: FittedSet) -> None:
        from analyzer.analysis.fit import fit_report

        self.paytable = paytable.name
        self._paytable = paytable
        self.unknowns = {name: (low, high) for name, low, high in paytable.unknowns}
        self.each = each
        self.together = together
        self.consistent = not together.empty
        self.intervals = {
            name: tuple((piece.low.value, piece.high.value) for piece in pieces)
            for name, pieces in together.intervals.items()
        }
        self._record = fit_report(paytable, each, together)
        self.exact = self._record["together"]["exact"]
        self.witness = together.witness

    def to_dict(self) -> dict[str, Any]:
        """The fit as ``baccarat-odds fit --format json`` prints it."""
        from analyzer.reports.outputs import fit_data

        return _json_ready(fit_data(self._paytable, self.each, self.together))

    def to_frame(self) -> pd.DataFrame:
        """A row per claim and one for all of them (``claim`` ``"all"``): the figure and,
        per unknown, the intervals it allows as the command prints them (``none``: no
        value; ``any``: a figure the unknowns do not move, which prints so)."""
        import pandas as pd

        from analyzer.analysis.fit import fit_rows

        return pd.DataFrame(fit_rows(self._paytable, self.each, self.together))

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name} in " + (" or ".join(f"[{lo}, {hi}]" for lo, hi in pieces) or "none")
            for name, pieces in self.intervals.items()
        )
        return f"<FitResult for {self.paytable}: {shown}>"


def fit(claims: str | os.PathLike, *, paytable: PaytableSpec | None = None) -> FitResult:
    """What published figures allow of a paytable's unknowns: for each claim of a claims
    file, and for all of them together, the interval of each unknown that holds every
    consistent value (``baccarat-odds fit``).

    Parameters
    ----------
    claims : str or path
        A claims ``.toml`` file, or a shipped claims file's name.
    paytable : str, path or Paytable, optional
        The paytable whose unknowns are solved for; default: the one the claims name.

    Returns
    -------
    FitResult
        The figures ``fit --format json`` prints; exact intervals and witness point as
        Fractions; ``to_frame()``: a row per claim and one for all.

    Raises
    ------
    AnalyzerError
        Claims that cannot be read or name several paytables, or a paytable without
        unknowns.

    Examples
    --------
    >>> from analyzer import fit
    >>> allowed = fit("prosperity-tree-baccarat")
    >>> allowed.consistent, allowed.witness
    (True, {'p': Fraction(7, 113)})
    >>> list(allowed.to_frame()["claim"])[-1]
    'all'
    """
    from analyzer.analysis.fit import claims_to_fit
    from analyzer.analysis.fit import fit as fit_claims

    spec = _path(claims, "claims")
    played, loaded = claims_to_fit(spec, None if paytable is None else as_paytable(paytable))
    each, together = fit_claims(played, loaded)
    return FitResult(played, each, together)
