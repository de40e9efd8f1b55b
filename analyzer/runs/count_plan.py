"""A count as it is asked for (``count``, on the command line or from Python): the bets
and modes it counts, its checks before any shoe is dealt, the linear count of each bet
(given, or derived from its effects of removal), and its figures as records."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from analyzer.analysis.solved import check_solved_work, solved_per_round
from analyzer.errors import AnalyzerError
from analyzer.game.cards import RANKS
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import Paytable, restricted
from analyzer.runs import TRUE_COUNT_DECKS
from analyzer.runs.counting import (
    COUNTER_FIGURES,
    PLAYS,
    STRATEGIES,
    CountJob,
    counter_figures,
    default_threshold,
    parse_tags,
)
from analyzer.runs.dealer import Procedure
from analyzer.runs.jobs import (
    MAX_MAX_GAIN,
    MAX_TAG,
    MAX_THRESHOLD,
    check_exact_work,
    check_game_work,
    check_partition_memory,
)

#: The most rounds an hour ``--rounds-per-hour`` takes (one a second is 3,600).
MAX_ROUNDS_PER_HOUR = 100_000


def check_rounds_per_hour(rounds_per_hour: float | None) -> None:
    """Refuse a pace outside (0, :data:`MAX_ROUNDS_PER_HOUR`] rounds an hour (None: no
    figures per hour)."""
    if rounds_per_hour is not None and not 0 < rounds_per_hour <= MAX_ROUNDS_PER_HOUR:
        raise AnalyzerError(
            f"--rounds-per-hour must be more than 0 and at most {MAX_ROUNDS_PER_HOUR:,}, "
            f"got {rounds_per_hour!r}"
        )


def second_moments(job: CountJob) -> tuple[Fraction, ...]:
    """Per column, the exact second moment of a unit paid's result on the full shoe the
    count deals, ``variance + EV^2`` (what :func:`~analyzer.runs.counting.counter_figures`
    takes a round's to be)."""
    from analyzer.analysis.exact import analyze

    analysis = analyze(paytable=job.paytable, shoe=Shoe.standard(job.procedure.decks))
    results = {(r.bet.id, r.mode): r for r in analysis.results}
    return tuple(
        results[column].variance + results[column].expected_value ** 2 for column in job.columns
    )


def check_max_gain(max_gain: float) -> None:
    """Refuse a max gain (units per shoe) outside (0, :data:`MAX_MAX_GAIN`]."""
    if not 0 < max_gain <= MAX_MAX_GAIN:
        raise AnalyzerError(
            f"--max-gain must be more than 0 and at most {MAX_MAX_GAIN:,} units per shoe, "
            f"got {max_gain!r}"
        )


def count_columns(paytable: Paytable, bet_ids: list[str], mode: str | None) -> tuple:
    """The (bet, mode) columns that the bets (ids, or ``all``) and the mode (None: the
    first; ``all``: every one) name, in paytable order."""
    from analyzer.analysis.exact import resolve_modes

    modes = paytable.modes[:1] if mode is None else resolve_modes(paytable, mode)
    named = tuple(dict.fromkeys(b for b in bet_ids if b != "all"))
    paytable.check_bet_ids(named)
    if "all" in bet_ids:
        return tuple((bet.id, m) for bet, m in paytable.offered(modes))
    columns = tuple((bet.id, m) for bet, m in paytable.offered(modes, named))
    for bet_id in named:
        if not any(column[0] == bet_id for column in columns):
            paytable.bet(bet_id, modes[0])  # raises: not offered in the mode
    return columns


def count_job(
    paytable: Paytable,
    columns: tuple,
    procedure: Procedure,
    seed: int,
    sizes: list[int],
    *,
    tags: str | None = None,
    threshold: float | None = None,
    true_count_decks: str | None = None,
    perfect: bool = False,
) -> CountJob:
    """The count of ``columns`` over shoes of ``sizes`` (per partition), every option
    checked and the exact work weighed before any shoe is dealt: by perfect play, and
    unless ``perfect`` by a linear count (``tags`` ``"A=0,2=1,..."`` and ``threshold``,
    each derived per bet where not given)."""
    if perfect and (tags is not None or threshold is not None or true_count_decks is not None):
        raise AnalyzerError(
            "--perfect bets on the exact EV: it takes no --tags, --threshold or --true-count-decks"
        )
    if tags is not None and not tags.replace(",", "").strip():
        raise AnalyzerError(
            "--tags is empty: give RANK=INTEGER for some ranks, or leave --tags out for the "
            "tags derived per bet"
        )
    if true_count_decks is not None and true_count_decks not in TRUE_COUNT_DECKS:
        raise AnalyzerError(
            f"--true-count-decks must be one of {', '.join(TRUE_COUNT_DECKS)}, "
            f"got {true_count_decks!r}"
        )
    single = restricted(paytable, columns)
    derive = not perfect and (not tags or threshold is None)
    bets = [single.bet(*column) for column in columns]
    if solved_per_round(paytable):  # each round's best play solved on its cards
        from analyzer.analysis.exact import check_known
        from analyzer.runs.solved_rounds import solved_rounds_bound

        check_known(single)
        per_shoe = solved_rounds_bound(paytable, procedure.cards, procedure.cut_card)
        check_solved_work(
            sum(sizes) * per_shoe, "count", "deal fewer shoes (--shoes), or fewer decks (--decks)"
        )
    elif paytable.game is not None:
        check_game_work(paytable, bets, procedure)
    else:
        check_exact_work(bets, procedure, sum(sizes), derive, paytable.mixture)
    check_partition_memory(sizes, CountJob(single, columns, procedure, seed))
    column_tags = thresholds = None
    if not perfect:
        column_tags, thresholds = linear_counts_of(single, columns, procedure, tags, threshold)
    divisor = true_count_decks or TRUE_COUNT_DECKS[0]
    return CountJob(single, columns, procedure, seed, column_tags, thresholds, divisor)


def linear_counts_of(
    single: Paytable,
    columns: tuple,
    procedure: Procedure,
    tags: str | None,
    threshold: float | None,
) -> tuple[tuple, tuple]:
    """Per column, tags and threshold of the linear count, given or derived from the
    effects of removal of the shoe that is dealt (its decks, not the paytable's). A
    column no linear count helps gets None; with one column that is an error."""
    from analyzer.analysis.eor import effects_of_removal, linear_counts
    from analyzer.analysis.exact import analyze

    shoe = Shoe.standard(procedure.decks)
    need_effects = not tags or threshold is None
    effects = effects_of_removal(single, shoe) if need_effects else None
    derived = {}
    if effects is not None:
        derived = {(c.bet, c.mode): c for c in linear_counts(effects)}
    base = {}
    if threshold is None:
        base = {
            (r.bet.id, r.mode): float(r.expected_value)
            for r in analyze(paytable=single, shoe=shoe).results
        }
    given = parse_tags(tags, MAX_TAG) if tags else None
    if threshold is not None and abs(threshold) > MAX_THRESHOLD:
        raise AnalyzerError(f"--threshold must be within ±{MAX_THRESHOLD:,}")
    out_tags, thresholds, refused = [], [], []
    for column in columns:
        try:
            column_tags = given
            if column_tags is None:
                column_tags = np.array([derived[column].tags[r] for r in RANKS])
                if not column_tags.any():
                    raise AnalyzerError(
                        f"no linear count helps {column[0]!r}: removing a card of any rank "
                        "moves it the same way (use --perfect, or give --tags and --threshold)"
                    )
            column_threshold = threshold
            if column_threshold is None:
                of_column = effects[(effects["bet"] == column[0]) & (effects["mode"] == column[1])]
                column_threshold = default_threshold(
                    of_column, column_tags, base[column], procedure.decks
                )
        except AnalyzerError as exc:
            if len(columns) == 1:
                raise
            if given is not None:  # the user's tags: say so, never fall back quietly
                refused.append((column, exc))
            out_tags.append(None)  # this bet is counted by perfect play only
            thresholds.append(None)
            continue
        out_tags.append(tuple(column_tags.tolist()))
        thresholds.append(column_threshold)
    if refused:
        (bet_id, mode), exc = refused[0]
        others = len(refused) - 1
        more = f" (and {others} more bet{'s' * (others > 1)})" if others else ""
        raise AnalyzerError(f"--tags for {bet_id} ({mode}){more}: {exc}")
    return tuple(out_tags), tuple(thresholds)


def count_strategy(job: CountJob, c: int) -> str:
    """How column ``c`` is bet, in words."""
    if job.tags is None:
        return "perfect play (bet when the exact EV is positive)"
    if job.tags[c] is None:
        return "no linear count helps this bet: perfect play only"
    tags = ",".join(f"{r}={t:+d}" for r, t in zip(RANKS, job.tags[c], strict=True))
    divisor = "" if job.true_count_decks == "in-shoe" else " (true count per unseen deck)"
    return f"linear count {tags}, bet at true count >= {job.thresholds[c]}{divisor}"


def count_record(
    job: CountJob,
    summary: dict,
    c: int,
    no_max_round: bool = False,
    *,
    second_moment: Fraction,
    rounds_per_hour: float | None = None,
) -> dict:
    """What JSON shows of column ``c`` (``summary``: its entry of
    :func:`~analyzer.runs.counting.count_summary`); ``no_max_round``: the headline figures
    without the bet's max round. Each play's figures gain the counter's (DI, N0, the sd
    per round, the win and sd per hour at ``rounds_per_hour``: see
    :func:`~analyzer.runs.counting.counter_figures`), from the bet's exact
    ``second_moment`` per unit paid (:func:`second_moments`)."""
    summary = dict(summary)
    for name in STRATEGIES:
        figures = summary[name]
        summary[name] = figures | counter_figures(figures, float(second_moment), rounds_per_hour)
    headline = "without_limit" if no_max_round or summary["max_round"] is None else "with_limit"
    advice = {}
    for play, values in summary["advice"].items():
        advice[play] = dict(values)
        if play != job.headline_of(c):
            advice[play]["by_max_round"] = summary["curves"][play]
    return {
        "bet": summary["bet"],
        "name": job.paytable.bet(summary["bet"], summary["mode"]).display_name(),
        "mode": summary["mode"],
        "play": job.headline_of(c),
        "max_round": summary["max_round"],
        "strategy": count_strategy(job, c),
        "seed": job.seed,
        "shoes": summary["shoes"],
        "rounds_per_shoe": summary["rounds_per_shoe"],
        "headline": headline,
        **summary[headline],
        "with_limit": summary["with_limit"],
        "without_limit": summary["without_limit"],
        "by_max_round": summary["by_max_round"],
        "advice": advice,
    }


_FIGURES = (
    "bet_frequency",
    "bet_frequency_se",
    "edge_when_bet",
    "edge_when_bet_se",
    "units_per_shoe",
    "units_per_shoe_se",
    "units_per_100_rounds",
    "units_per_100_rounds_se",
    *COUNTER_FIGURES,
)
_ADVICE = (
    "max_gain",
    "largest_safe_max_round",
    "needs_no_limit",
    "confidence",
    "printed_max_round_is_safe",
)
#: The columns of a count's rows for tools (:func:`flat_record`, every play's advice a
#: column, None where the play was not counted): JSON's ``bets`` and the CSV's.
COUNT_COLUMNS = (
    "bet",
    "name",
    "mode",
    "play",
    "max_round",
    "strategy",
    "seed",
    "shoes",
    "rounds_per_shoe",
    "headline",
    *_FIGURES,
    *(f"with_limit_{key}" for key in _FIGURES),
    *(f"without_limit_{key}" for key in _FIGURES),
    *(f"advice_perfect_{key}" for key in _ADVICE),
    *(f"advice_count_{key}" for key in _ADVICE),
)


def curve_rows(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The gain by max round of every counted (bet, mode) and play, a row per max round:
    ``bet``, ``mode``, ``play``, then the curve's point (``max_round``,
    ``units_per_shoe`` and its standard error, ``bet_frequency``)."""
    rows = []
    for record in records:
        curves = {record["play"]: record["by_max_round"]}
        for play, advice in record["advice"].items():
            if "by_max_round" in advice:
                curves[play] = advice["by_max_round"]
        for play in PLAYS:
            for point in curves.get(play, ()):
                rows.append({"bet": record["bet"], "mode": record["mode"], "play": play} | point)
    return rows


def flat_record(record: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A count's record as one row for tools: its objects spread into columns
    (``with_limit_units_per_shoe``, ``advice_perfect_largest_safe_max_round``), its
    curves (lists, by max round) left to JSON."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        if isinstance(value, dict):
            out |= flat_record(value, f"{prefix}{key}_")
        elif not isinstance(value, list):
            out[f"{prefix}{key}"] = value
    return out
