"""The JSON documents of the runs (simulate, count, audit) and of fit, made once: the
command prints them and the Python API's ``to_dict()`` returns them, each under its
contract (:mod:`analyzer.reports.contract`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from analyzer.paytables.model import Paytable
from analyzer.reports.contract import (
    dealt_shoe_record,
    decision_record,
    envelope,
    played_options,
    shoe_record,
)
from analyzer.reports.document import Table, records_table
from analyzer.reports.writers import tool_rows

if TYPE_CHECKING:
    from analyzer.analysis.audit import AuditResult
    from analyzer.analysis.fit import FitResult, FittedClaim
    from analyzer.analysis.solve import GameSolution
    from analyzer.game.shoe import Shoe
    from analyzer.runs.as_dealt import DealtJob
    from analyzer.runs.dealer import Procedure


def run_options(
    paytable: Paytable, procedure: Procedure, shoes: int, seed: int, partition_size: int
) -> dict[str, Any]:
    """The options of a run of shoes that change its figures: the shoes, the seed, how
    they are dealt, the partitions (each its own random stream), how the paytable is
    played, and the player's decision (its cards shown's chances as played, the file
    that plays it: :func:`~analyzer.reports.contract.decision_record`)."""
    return {
        "shoes": shoes,
        "seed": seed,
        "cut_card": procedure.cut_card,
        "last_round": procedure.last_round,
        "partition_size": partition_size,
        **played_options(paytable),
        "decision": decision_record(paytable),
    }


def shuffle_name(riffles: int) -> str:
    """How a run's shoes were shuffled, as ``--shuffle`` names it: ``"perfect"`` (0
    riffles) or ``"riffle:K"``."""
    return "perfect" if not riffles else f"riffle:{riffles}"


def simulate_options(
    paytable: Paytable,
    procedure: Procedure,
    shoes: int,
    seed: int,
    partition_size: int,
    riffles: int = 0,
) -> dict[str, Any]:
    """The options of a simulation that change its figures: a run's
    (:func:`run_options`) and the ``shuffle`` (:func:`shuffle_name`)."""
    return run_options(paytable, procedure, shoes, seed, partition_size) | {
        "shuffle": shuffle_name(riffles)
    }


def count_options(
    paytable: Paytable,
    procedure: Procedure,
    shoes: int,
    seed: int,
    partition_size: int,
    *,
    bets: Sequence[str],
    mode: str | None,
    tags: str | None,
    threshold: float | None,
    true_count_decks: str,
    perfect: bool,
    no_max_round: bool,
    max_gain: float,
    rounds_per_hour: float | None = None,
) -> dict[str, Any]:
    """The options of a count that change its figures: a run's (:func:`run_options`),
    the bets and mode asked for, the count (tags, threshold, the true count's divisor),
    perfect play only, the headline without the max round, the advice's largest gain,
    and the pace of the figures per hour (None: none)."""
    return run_options(paytable, procedure, shoes, seed, partition_size) | {
        "bets": list(bets),
        "mode": mode,
        "tags": tags,
        "threshold": threshold,
        "true_count_decks": true_count_decks,
        "perfect": perfect,
        "no_max_round": no_max_round,
        "max_gain": max_gain,
        "rounds_per_hour": rounds_per_hour,
    }


def simulation_data(
    paytable: Paytable,
    procedure: Procedure,
    options: Mapping[str, Any],
    rounds: int,
    bets: Sequence[Mapping[str, Any]],
    warnings: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """``simulate``'s document: a row per (bet, mode) under ``bets``, the rounds dealt,
    and the run's ``warnings`` (:func:`~analyzer.runs.few_rounds.simulation_warnings`;
    an empty list when there is none)."""
    return envelope(
        "simulate",
        paytable=paytable,
        shoe=dealt_shoe_record(procedure.decks),
        options=options,
        rows=bets,
        rounds=rounds,
        warnings=_warnings(warnings),
    )


def dealt_data(
    paytable: Paytable,
    job: DealtJob,
    shoe: Shoe,
    records: Sequence[Mapping[str, Any]],
    *,
    exact: bool,
    shoes: int | None,
    seed: int,
    partition_size: int,
    bets: Sequence[str] | None,
    mode: str | None,
    shoe_given: bool,
) -> dict[str, Any]:
    """``dealt``'s document: a row per (bet, mode) under ``bets`` (the records of
    :func:`~analyzer.runs.as_dealt.dealt_summary`, or exact ones), the shoe dealt (its
    counts against full decks unless ``shoe_given``: a shoe file's) and the options that
    change the figures (``seed`` and ``partition_size`` null for an exact run)."""
    from analyzer.reports.contract import json_value

    options = {
        "exact": exact,
        "shoes": shoes,
        "seed": None if exact else seed,
        **job.rule.record(),
        "partition_size": None if exact else partition_size,
        "bets": list(bets or ["all"]),
        "mode": mode,
        **played_options(paytable),
    }
    return envelope(
        "dealt",
        paytable=paytable,
        shoe=shoe_record(shoe, None if shoe_given else shoe.decks),
        options=options,
        rows=[json_value(r) for r in records],
    )


def count_table(records: Sequence[Mapping[str, Any]]) -> Table:
    """A count's rows for tools: a row per (bet, mode) counted, its record spread into
    the columns :data:`~analyzer.runs.count_plan.COUNT_COLUMNS` names."""
    from analyzer.runs.count_plan import COUNT_COLUMNS, flat_record

    flat = [flat_record(dict(record)) for record in records]
    kinds = {key: "count" for key in COUNT_COLUMNS if key.endswith("max_round") or key == "seed"}
    return records_table(flat, kinds, columns=COUNT_COLUMNS)  # type: ignore[arg-type]


def count_data(
    paytable: Paytable,
    procedure: Procedure,
    options: Mapping[str, Any],
    records: Sequence[Mapping[str, Any]],
    warnings: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """``count``'s document: a row per (bet, mode) under ``bets`` (one bet or many), the
    gain by max round of each play under ``curves``, and the count's ``warnings``
    (:func:`~analyzer.runs.few_rounds.count_warnings`; an empty list when there is
    none)."""
    from analyzer.runs.count_plan import curve_rows

    return envelope(
        "count",
        paytable=paytable,
        shoe=dealt_shoe_record(procedure.decks),
        options=options,
        rows=tool_rows(count_table(records)),
        curves=curve_rows([dict(record) for record in records]),
        warnings=_warnings(warnings),
    )


def _warnings(warnings: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A run's warnings as JSON gives them: ``kind``, ``bets`` (``bet``, ``mode``,
    ``rounds``) and ``message``, copied."""
    return [
        {
            "kind": warning["kind"],
            "bets": [dict(bet) for bet in warning["bets"]],
            "message": warning["message"],
        }
        for warning in warnings
    ]


def audit_data(
    result: AuditResult, paytable: Paytable, level: float, shuffle: Any = None
) -> dict[str, Any]:
    """``audit``'s document: the findings listed under ``findings``, then the rest of the
    audit's record (:func:`~analyzer.analysis.audit_record.audit_record`); its options
    are whether the fit was tested and at which ``level``, whether the shuffle was
    tested, the game (None for punto banco) and how the paytable is played. ``shuffle``:
    the shuffle tests (:class:`~analyzer.analysis.shuffle_tests.ShuffleResult`), given
    under ``shuffle_tests``, or None where they were not run."""
    from analyzer.analysis.audit_record import audit_record
    from analyzer.analysis.shuffle_tests import shuffle_record

    record = audit_record(result, paytable)
    if shuffle is not None:
        record["shuffle_tests"] = shuffle_record(shuffle)
    findings = record.pop("findings")
    del record["paytable"], record["decks"]  # (the envelope's)
    return envelope(
        "audit",
        paytable=paytable,
        shoe=dealt_shoe_record(result.decks),
        options={
            "fit": result.fit is not None,
            "shuffle_tests": shuffle is not None,
            "level": level,
            **played_options(paytable, with_game=True),
        },
        rows=findings,
        **record,
    )


def fit_data(paytable: Paytable, each: list[FittedClaim], together: FitResult) -> dict[str, Any]:
    """``fit``'s document: a row per claim under ``claims`` (a figure the unknowns do not
    move: ``moved_by_unknowns`` false, no intervals), the set of all of them together,
    and the unknowns' ranges."""
    from analyzer.analysis.fit import fit_report

    report = fit_report(paytable, each, together)
    empty = {"intervals": None, "closed": None, "exact": None, "digits": None, "witness": None}
    rows = [
        {
            "claim": row["claim"],
            "figure": row["figure"],
            "moved_by_unknowns": row.get("moved_by_unknowns", True),
            "consistent": row["consistent"],
        }
        | {key: row.get(key, empty[key]) for key in empty}
        for row in report["claims"]
    ]
    return envelope(
        "fit",
        paytable=paytable,
        shoe=dealt_shoe_record(paytable.decks),
        options=played_options(paytable),
        rows=rows,
        unknowns=report["unknowns"],
        together=report["together"],
    )


def solution_data(solution: GameSolution, game: str, paytable: Paytable | None) -> dict[str, Any]:
    """``solve``'s document: a row per decision cell under ``cells`` (the Player's, then
    every Banker cell: its hand, total, the Player's third card, the exact probability of
    drawing as ``"p/q"`` and as a float, and the play), then the game solved and its
    value (``paytable``: the paytable whose rules were played, None for a rule set)."""
    from analyzer.analysis.solve import fraction_text
    from analyzer.game.shoe import Shoe

    frame = solution.to_frame().reset_index()
    rows = [
        row | {"draw": fraction_text(row["draw"]), "total": int(row["total"])}
        for row in frame.to_dict("records")
    ]
    shoe = Shoe.infinite() if solution.infinite else solution.shoe
    return envelope(
        "solve",
        paytable=paytable,
        shoe=shoe_record(shoe),
        options={"drawing_rules": solution.rules.name},
        rows=rows,
        game=game,
        value_to_banker=fraction_text(solution.value),
        value_to_banker_float=float(solution.value),
        value_to_player=fraction_text(solution.value_to_player),
        mixed=[str(cell) for cell in solution.mixed],
    )
