"""``baccarat-odds audit``: check a log of the rounds a table dealt."""

from __future__ import annotations

import argparse
import textwrap

from analyzer.analysis.audit_groups import DEFAULT_CONFIDENCE, DEFAULT_DEVIATION, MIN_GROUP_ROUNDS
from analyzer.cli.options import (
    REPORT_SUFFIXES,
    add_decks_option,
    add_format_option,
    add_paytable_option,
    add_progress_options,
    add_report_out_option,
    check_report_out,
    deliver_report,
    finite_number,
    layout,
    paytable_from_args,
    reads,
    whole_number,
    writes,
)
from analyzer.cli.runs import add_partition_options
from analyzer.errors import AnalyzerError
from analyzer.game.shoe import INFINITE
from analyzer.reports.document import Column, Document, Heading, Paragraph, records_table, table
from analyzer.reports.formats import REPORT_FORMATS
from analyzer.runs.jobs import DEFAULT_PARTITION_ROWS
from analyzer.words import counted

DESCRIPTION = """\
Read a log of the rounds a table dealt (CSV or Parquet, one row per round: shoe, round,
player_cards, banker_cards; optionally burn, winner, player_score, banker_score and
payouts pay:<bet> or pay:<bet>:<mode>) and check every round against the paytable: the
drawing rules, the scores and winner, no card more often in a shoe than its decks hold,
rounds numbered in order, each logged burn as the procedure says (on a shoe's first
round: the shown card and as many more as its value), every payout as the paytable
settles it, and no shoe dealt twice (within a log or across the logs given). A log of
another game of the family (Dragon Tiger, Three Card Baccarat, Lucky Draw Baccarat)
names the game's hands: <hand>_cards (dragon_cards, tiger_cards), <hand>_score, and for
a game with a player's decision the action taken (a fold's rounds net minus the share of
the stake it forfeits) and, where the decision is shown cards at random, shown (the
cards it was shown, by name, or none; a punto banco paytable with a [decision], Peek
Baccarat, likewise shown and action:<bet id>, each bet's action, its payout at that
stake); each hand's cards, its card after the
deal (by its rule or the action) and the scores are checked as the game deals and
scores them. Findings are listed first, each with its shoe, round and row (and log, of
several). Then the fit to the exact odds: the outcome, natural, pair and side-bet
frequencies against a full shoe's exact probabilities (chi-square, exact binomial; with
a player's decision, each round's exact chances given the cards seen and the action),
runs and serial correlation of the winners, and the shoe-aware test (each round priced
on the cards left in its shoe), each with its p-value and verdict at --level after
Holm's correction. A log naming each round's dealer, table or studio (columns dealer,
table, studio, any subset) has every test run again per group, Holm's correction over
every test of every group (a group of fewer than --min-group-rounds rounds is listed,
not tested). A log giving stakes (stake:<bet> or stake:<bet>:<mode>, the amount staked
that round) has each bet's return monitored: the actual return, weighted by the stakes,
against the exact RTP, with its band at --confidence from the exact variance, and the
rounds needed before a return --deviation away would be seen (overall and per group).
With --shuffle-tests, the shuffle is tested too, over the consecutive shoes of each log:
each rank's place in the shoe, neighbours of one shoe found together again in the next,
and a shoe's first cards against the last cards dealt from the one before. Findings are
about the table, not errors: the exit status is 0 (1 with
--fail-on-findings); a malformed log is one line and exit status 2."""
EXAMPLES = """\
examples:
  baccarat-odds simulate --shoes 100 --seed 1 --log rounds.csv   # a log to audit
  baccarat-odds audit rounds.csv
  baccarat-odds audit rounds.csv --decks 6 --fail-on-findings   # exit 1: 8-deck shoes found
  baccarat-odds audit rounds.csv --level 0.001 --format xlsx --out audit.xlsx
  baccarat-odds audit rounds.csv --plot fit.png    # the calibration and the running difference
  baccarat-odds simulate --shoes 100 --seed 2 --paytable ez-baccarat --log ez.parquet
  baccarat-odds audit ez.parquet --paytable ez-baccarat --format json
  baccarat-odds simulate --shoes 100 --seed 3 --log more.parquet
  baccarat-odds audit rounds.csv more.parquet      # one audit: a shoe in both is found
  baccarat-odds audit more.parquet --workers 2     # in saved partitions; again with --resume
  baccarat-odds simulate --shoes 50 --seed 6 --shuffle riffle:2 --log riffled.csv
  baccarat-odds audit riffled.csv --no-fit --shuffle-tests   # the weak riffle is found
  baccarat-odds simulate --shoes 20 --seed 4 --paytable dragon-tiger --log dragon.csv
  baccarat-odds audit dragon.csv --paytable dragon-tiger    # dragon_cards, tiger_cards
  baccarat-odds simulate --shoes 5 --seed 5 --paytable lucky-draw-baccarat-1 --log lucky.csv
  baccarat-odds audit lucky.csv --paytable lucky-draw-baccarat-1   # the action column too"""


MAX_PARTITION_ROWS = 10**8


def share_number(text: str) -> float:
    """An argparse type: a share strictly between 0 and 1, as a number or a percentage
    (``95%``, ``0.95``, ``0.5%``)."""
    percent = text.strip().endswith("%")
    value = finite_number(text.strip().removesuffix("%"))
    value = value / 100 if percent else value
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(
            f"must be between 0 and 1, or 0% and 100% (e.g. 95% or 0.95), got {text!r}"
        )
    return value


def level_number(text: str) -> float:
    """An argparse type: a test level, strictly between 0 and 1."""
    value = finite_number(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (e.g. 0.01), got {text!r}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    reads(
        parser.add_argument(
            "logs",
            metavar="LOG",
            nargs="+",
            help="the log: a CSV file with a header row, or a Parquet file; several are "
            "audited as one (a shoe of one dealt again in another is found; the fit is over "
            "all)",
        ),
        "a log audited",
    )
    add_paytable_option(parser)
    add_decks_option(parser)
    add_format_option(parser, REPORT_FORMATS)
    add_report_out_option(parser)
    parser.add_argument(
        "--level",
        type=level_number,
        default=0.01,
        help="the level each test of the fit fails at, after Holm's correction over the "
        "tests run (default 0.01)",
    )
    parser.add_argument(
        "--no-fit",
        action="store_true",
        help="the checks only: no tests of the fit to the exact odds",
    )
    parser.add_argument(
        "--shuffle-tests",
        action="store_true",
        help="also test the shuffle over each log's consecutive shoes (a shoe's rows "
        "together, in the order dealt, every round logged): each rank's place in the shoe "
        "(chi-square), neighbours of one shoe together again in the next, a shoe's first "
        "cards against the last dealt from the one before (exact mean and variance, normal "
        "tail); p-values at --level after Holm's correction over these tests (punto banco "
        "logs; default: not tested)",
    )
    writes(
        parser.add_argument(
            "--plot",
            metavar="FILE.png",
            help="also draw the fit: the shoe-aware calibration of each outcome and the "
            "running Banker-minus-Player difference against its band at --level (default: no plot)",
        )
    )
    runs = parser.add_argument_group(
        "partitions (any of these audits the logs in saved, resumable partitions)"
    )
    runs.add_argument(
        "--partition-rows",
        type=whole_number(1000, MAX_PARTITION_ROWS),
        default=None,
        metavar="ROWS",
        help="rows per partition, about (cut where a shoe begins; default "
        f"{DEFAULT_PARTITION_ROWS:,} once partitions are asked for)",
    )
    add_partition_options(runs, rest="audit the rest")
    groups = parser.add_argument_group(
        "groups and monitoring (columns dealer, table, studio and stake:<bet> in the log)"
    )
    groups.add_argument(
        "--min-group-rounds",
        type=whole_number(1, 10**9),
        default=MIN_GROUP_ROUNDS,
        metavar="ROUNDS",
        help="a dealer, table or studio with fewer rounds is listed, not tested "
        f"(default {MIN_GROUP_ROUNDS})",
    )
    groups.add_argument(
        "--confidence",
        type=share_number,
        default=DEFAULT_CONFIDENCE,
        metavar="SHARE",
        help="the monitoring band's confidence, e.g. 95%% or 0.99; a bet whose return is "
        "outside it after Holm's correction is called (default 95%%)",
    )
    groups.add_argument(
        "--deviation",
        type=share_number,
        default=DEFAULT_DEVIATION,
        metavar="SHARE",
        help="the deviation of a return from its RTP whose rounds needed are given: the "
        "rounds until the band's half width is below it (default 0.5%%)",
    )
    parser.add_argument(
        "--fail-on-findings",
        action="store_true",
        help="exit status 1 when anything is found (default: 0, findings are not errors)",
    )
    add_progress_options(parser)


def run(args: argparse.Namespace) -> tuple[str, int]:
    from analyzer.files import check_outputs, output_error
    from analyzer.reports.writers import write_document
    from analyzer.runs.audit_run import run_audit

    check_report_out(args.format, args.report_out)
    if args.plot is not None and args.no_fit:
        raise AnalyzerError("--plot draws the fit to the exact odds, which --no-fit leaves out")
    outputs = {"--out": (args.report_out, REPORT_SUFFIXES.get(args.format))}
    check_outputs(outputs | {"--plot": (args.plot, (".png",))})
    paytable = paytable_from_args(args)
    shuffle = None
    if args.shuffle_tests:  # first: a log they cannot take is refused before the audit
        from analyzer.runs.audit_log import shuffle_tests_of_logs

        shuffle = shuffle_tests_of_logs(args.logs, paytable, args.decks, args.level)
    result = run_audit(
        args.logs, paytable, args.decks, fit=not args.no_fit, level=args.level,
        partition_rows=args.partition_rows, work_dir=args.work_dir, resume=args.resume,
        workers=args.workers, scheduler=args.scheduler, min_rounds=args.min_group_rounds,
        confidence=args.confidence, deviation=args.deviation,
    )  # fmt: skip
    if args.plot is not None:
        from analyzer.reports.plots import audit_figure, save_png

        try:
            save_png(audit_figure(result.fit), args.plot, held=True)
        except OSError as exc:
            raise output_error("--plot", args.plot, exc) from None
    status = 1 if args.fail_on_findings and result.total else 0
    document = audit_document(result, paytable, args.level, shuffle)
    content = write_document(document, args.format, **layout(args))
    return deliver_report(content, args.report_out), status


def audit_document(result, paytable, level: float = 0.01, shuffle=None) -> Document:
    """The audit as a document: for people, the findings (or "No findings."), the summary
    and, where they were run, the fit's tests and calibration and the shuffle tests
    (``shuffle``); for tools, the findings, the tests and the calibration as tables, and
    the whole record as JSON."""
    from analyzer.analysis.audit import payout_column
    from analyzer.analysis.audit_record import finding_record
    from analyzer.reports.outputs import audit_data

    lines = []
    if result.findings:
        lines.append("Findings:")
        for f in result.findings:
            log = f"{f.log}, " if f.log else ""
            lines.append(f"  {log}row {f.row}, shoe {f.shoe}, round {f.round}: {f.check}: {f.text}")
        hidden = result.total - len(result.findings)
        if hidden:
            lines.append(f"  ... and {hidden:,} more findings, not shown")
    else:
        lines.append("No findings.")
    summary = []
    decks = "an infinite deck" if result.decks == INFINITE else counted(result.decks, "deck")
    summary.append(
        f"Audited {counted(result.rounds, 'round')} of {counted(result.shoes, 'shoe')}"
        f"{f' in {result.logs} logs' if result.logs > 1 else ''} against "
        f"{paytable.name} ({decks}): {counted(result.total, 'finding')}"
    )
    by_check = ", ".join(f"{check} {n:,}" for check, n in result.counts.items())
    summary.append(f"  by check: {by_check}")
    if result.payouts_checked:
        shown = ", ".join(payout_column(b, m, paytable) for b, m in result.payouts_checked)
        summary.append(f"  payouts checked: {shown}")
    for bet_id, mode, why in result.not_checkable:
        summary.append(f"  not checkable: {payout_column(bet_id, mode, paytable)}: {why}")
    finding_columns = [
        Column(k, "count" if k in ("row", "round") else "text")
        for k in ("check", "log", "row", "shoe", "round", "text")
    ]
    blocks: list = [
        Paragraph("\n".join(lines)),
        Paragraph("\n".join(summary)),
        table(
            finding_columns,
            [list(finding_record(f).values()) for f in result.findings],
            audience="tools",
        ),
    ]
    if result.fit is not None:
        blocks += _fit_blocks(result.fit, paytable)
    if result.monitoring or result.monitoring_notes:
        blocks += _monitoring_blocks(result, paytable)
    if result.groups is not None:
        blocks += _group_blocks(result, paytable)
    if shuffle is not None:
        blocks += _shuffle_blocks(shuffle)
    return Document(None, tuple(blocks), audit_data(result, paytable, level, shuffle))


def _shuffle_blocks(shuffle) -> list:
    from analyzer.analysis.shuffle_tests import shuffle_test_record, shuffle_verdict

    run, failed = len(shuffle.tests), len(shuffle.failed)
    verdict = "every test passes" if not failed else f"{counted(failed, 'test')} of {run} fail"
    if not run:
        verdict = "none run"
    intro = [
        f"{counted(run, 'test')} at level {shuffle.level:g}, p-values adjusted by Holm's "
        f"correction over the {run} run: {verdict}",
        f"  {counted(shuffle.shoes, 'shoe')}, {counted(shuffle.pairs, 'consecutive pair')}; "
        f"places counted from each shoe's {'burn' if shuffle.burn_logged else 'first round'}"
        f", the first {shuffle.window:,} (every shoe's)",
    ]
    intro += [f"  not run: {key}: {why}" for key, why in shuffle.not_run]
    intro += [f"  {note}" for note in shuffle.notes]
    rows = [
        [
            t.key,
            f"{t.shoes:,}",
            f"{t.observed:,.1f}" if t.statistic_name == "chi2" else f"{int(t.observed):,}",
            f"{t.expected:,.1f}",
            f"{t.statistic_name} = {t.statistic:.3f}",
            _tiny_p_text(t.p_value),
            _tiny_p_text(t.adjusted_p),
            shuffle_verdict(t, shuffle.level),
        ]
        for t in shuffle.tests
    ]
    headers = ["test", "shoes", "observed", "expected", "statistic", "p-value", "Holm p"]
    methods = [
        textwrap.fill(
            f"{t.key}: {t.method}; would catch {t.catches}",
            width=88,
            initial_indent="  ",
            subsequent_indent="    ",
        )
        for t in shuffle.tests
    ]
    records = [shuffle_test_record(t, shuffle.level) for t in shuffle.tests]
    return [
        Heading("Shuffle tests", 2),
        Paragraph("\n".join(intro)),
        table([Column(h) for h in [*headers, "verdict"]], rows, audience="people"),
        Paragraph("\n".join(methods)),
        records_table(
            records,
            _TEST_KINDS | {"df": "count"},
        ),
    ]


#: The kinds of a test record's figures (the tools' tables of tests: the whole log's, each
#: group's, the shuffle's).
_TEST_KINDS = {
    key: "number" for key in ("observed", "expected", "statistic", "p_value", "holm_p_value")
}


_MONITOR_HEADERS = [
    "bet",
    "rounds",
    "paid",
    "actual RTP",
    "exact RTP",
    "band",
    "Holm p",
    "verdict",
    "rounds needed",
]


def _monitor_cells(r, paytable) -> list[str]:
    from analyzer.analysis.audit_record import monitor_verdict, stake_column

    band = "-" if r.low is None else f"{r.low:.2%} to {r.high:.2%}"
    return [
        stake_column(r.bet, r.mode, paytable).removeprefix("stake:"),
        f"{r.rounds:,}",
        f"{r.paid:,.2f}",
        "-" if r.actual_rtp is None else f"{r.actual_rtp:.4%}",
        f"{float(r.theoretical_rtp):.4%}",
        band,
        _p_text(r.adjusted_p),
        monitor_verdict(r),
        "-" if r.rounds_needed is None else f"{r.rounds_needed:,}",
    ]


def _group_monitor_cells(g, r, paytable) -> list[str]:
    cells = _monitor_cells(r, paytable)
    del cells[4], cells[2]  # (the paid and the exact RTP: the whole log's table has them)
    return [f"{g.column} {g.value}", *cells]


def _monitor_records(rows, paytable, column=None, value=None) -> list[dict]:
    from analyzer.analysis.audit_record import monitor_record

    return [{"column": column, "group": value, **monitor_record(r, paytable)} for r in rows]


_MONITOR_KINDS = {
    key: "number"
    for key in (
        "paid", "actual_rtp", "theoretical_rtp", "variance", "standard_error", "band_low",
        "band_high", "z", "p_value", "holm_p_value",
    )
} | {"column": "text", "group": "text", "rounds_needed": "count"}  # fmt: skip


def _monitoring_blocks(result, paytable) -> list:
    """Each staked bet's return against its exact RTP, over the whole log."""
    intro = [
        "each bet's return over the rounds staked on it (the logged payout, else the "
        "paytable's settlement of the cards), weighted by the stakes, against its exact RTP "
        f"(a full shoe); band at {result.confidence * 100:g}% confidence from the exact variance "
        "of a unit's net, the rounds taken as independent; Holm's correction over the bets",
        f"  rounds needed: at the stakes seen, until the band's half width is below "
        f"{result.deviation * 100:g}% of the stake",
    ]
    intro += [f"  {note}" for note in result.monitoring_notes]
    unvalued = sum(r.unvalued for r in result.monitoring)
    if unvalued:
        intro.append(
            f"  left out: {counted(unvalued, 'stake')} on a round whose payout is neither "
            "logged nor settled from the cards"
        )
    rows = [_monitor_cells(r, paytable) for r in result.monitoring]
    return [
        Heading("Monitoring of the return to the stakes", 2),
        Paragraph("\n".join(intro)),
        table([Column(h) for h in _MONITOR_HEADERS], rows, audience="people"),
        records_table(_monitor_records(result.monitoring, paytable), _MONITOR_KINDS),
    ]


def _group_blocks(result, paytable) -> list:
    """Each dealer's, table's and studio's tests and monitoring."""
    from analyzer.analysis.audit_record import fit_test_record

    groups = result.groups
    tested = [g for g in groups.groups if g.tested]
    run = sum(len(g.fit.run) for g in tested if g.fit is not None)
    failed = groups.failed
    verdict = (
        "no group is called"
        if not failed
        else f"{counted(len(failed), 'group')} called: " + ", ".join(
            f"{g.column} {g.value}" for g in failed
        )
    )  # fmt: skip
    intro = [
        f"{counted(len(groups.groups), 'group')} ({', '.join(groups.columns)}), "
        f"{len(tested)} with at least {groups.min_rounds:,} rounds tested: {verdict}",
    ]
    if result.fit is not None:
        intro.append(
            f"  tests: each test of the fit over the group's rounds, Holm's correction over "
            f"the {run} run in every group tested"
        )
    if result.monitoring:
        intro.append(
            "  monitoring: each staked bet's return in the group, Holm's correction over "
            "every group's bets"
        )
    rows = []
    for g in groups.groups:
        if not g.tested:
            state = f"too few rounds (fewer than {groups.min_rounds:,}): not tested"
            rows.append([g.column, g.value, f"{g.rounds:,}", "-", state])
            continue
        parts = []
        if g.fit is not None:
            bad = [t.name for t in g.fit.failed]
            parts.append(f"{len(g.fit.run)} tests pass" if not bad else f"FAIL: {', '.join(bad)}")
        outside = [r.bet for r in g.monitoring if r.inside is False]
        if outside:
            parts.append(f"OUTSIDE its band: {', '.join(outside)}")
        elif g.monitoring:
            parts.append("returns inside their bands")
        shown = "called" if g in failed else "pass"
        rows.append([g.column, g.value, f"{g.rounds:,}", shown, "; ".join(parts) or "-"])
    blocks: list = [
        Heading("By dealer, table and studio", 2),
        Paragraph("\n".join(intro)),
        table(
            [Column(h) for h in ("column", "group", "rounds", "verdict", "what was found")],
            rows,
            audience="people",
        ),
    ]
    monitored = [(g, r) for g in tested for r in g.monitoring]
    if monitored:
        blocks.append(
            table(
                [Column(h) for h in ("group", *_MONITOR_HEADERS) if h not in ("paid", "exact RTP")],
                [_group_monitor_cells(g, r, paytable) for g, r in monitored],
                audience="people",
            )
        )
    test_records = [
        {"column": g.column, "group": g.value, "group_rounds": g.rounds,
         **{k: v for k, v in fit_test_record(t).items() if k != "counts"}}
        for g in tested if g.fit is not None for t in g.fit.tests
    ]  # fmt: skip
    if test_records:
        blocks.append(records_table(test_records, _TEST_KINDS))
    group_records = [
        {"column": g.column, "group": g.value, "rounds": g.rounds, "tested": g.tested,
         "called": g in failed}
        for g in groups.groups
    ]  # fmt: skip
    blocks.append(records_table(group_records))
    monitor_records = [
        record
        for g in tested
        for record in _monitor_records(g.monitoring, paytable, g.column, g.value)
    ]
    if monitor_records:
        blocks.append(records_table(monitor_records, _MONITOR_KINDS))
    return blocks


def _fit_blocks(fit, paytable) -> list:
    from analyzer.analysis.audit_fit import BATCH_ERROR_BOUND, BATCH_ERROR_MEASURED
    from analyzer.analysis.audit_record import bin_record, fit_test_record
    from analyzer.analysis.audit_record import verdict as verdict_of

    run, failed = len(fit.run), len(fit.failed)
    verdict = "every test passes" if not failed else f"{counted(failed, 'test')} of {run} fail"
    game = paytable.game
    shoe = "an infinite deck" if fit.decks == INFINITE else counted(fit.decks, "deck")
    keys = {t.key for t in fit.tests}
    intro = [
        f"{counted(run, 'test')} at level {fit.level:g}, p-values adjusted by Holm's "
        f"correction over the {run} run: {verdict}",
    ]
    if game is not None and game.decision is not None:
        intro.append(
            "  frequencies: each round against its exact chances given the cards the player "
            f"saw and the action taken, in a full shoe ({shoe}); side bets over the rounds "
            "logging their payout"
        )
    else:
        intro.append(
            f"  frequencies: against the exact probabilities of a full shoe ({shoe}); side "
            "bets over the rounds logging their payout"
        )
    lead, other = (label.removesuffix(" wins") for _, label in fit.outcomes[:2])
    if "runs" in keys:
        intro.append(
            f"  runs, serial correlation: {lead} and {other} wins in log order, ties left "
            "out, shoes joined"
        )
    if any(key.startswith("shoe_aware:") for key in keys):
        how = (
            "by the batch engine, in floats within "
            f"{BATCH_ERROR_BOUND:g} of exact a round (measured {BATCH_ERROR_MEASURED:g})"
            if game is None
            else f"as {game.name} scores its hands, in floats"
        )
        intro.append(
            f"  shoe-aware: {counted(fit.shoe_aware_rounds, 'round')}, each priced on the cards "
            f"left in its shoe (earlier rounds and burns out) {how}"
        )
    if fit.left_out:
        not_dealt = "" if game is None else f", or not dealt as {game.name} deals"
        intro.append(
            f"  left out of the shoe-aware test: {counted(fit.left_out, 'round')} whose shoe "
            f"holds more of a card than its decks, or fewer cards than a round takes{not_dealt}"
        )
    intro += [f"  {note}" for note in fit.notes]
    rows = [
        [
            t.name,
            t.method,
            f"{t.rounds:,}",
            _observed_text(t),
            _expected_text(t),
            "-" if t.statistic is None else f"{t.statistic_name} = {_number_text(t)}",
            _p_text(t.p_value),
            _p_text(t.adjusted_p),
            verdict_of(t),
        ]
        for t in fit.tests
    ]
    headers = [
        "test",
        "method",
        "rounds",
        "observed",
        "expected",
        "statistic",
        "p-value",
        "Holm p",
        "verdict",
    ]
    calibration = [
        [
            b.outcome,
            f"{b.low:.4f}-{b.high:.4f}",
            f"{b.rounds:,}",
            f"{b.predicted / b.rounds:.4f}",
            f"{b.observed / b.rounds:.4f}",
            f"{b.predicted:,.1f}",
            f"{b.observed:,}",
        ]
        for b in fit.calibration
    ]
    calibration_headers = [
        "outcome",
        "predicted in",
        "rounds",
        "mean predicted",
        "observed share",
        "expected",
        "observed",
    ]
    test_records = [
        {key: value for key, value in fit_test_record(t).items() if key != "counts"}
        for t in fit.tests
    ]
    bin_records = [bin_record(b) for b in fit.calibration]
    shown = [
        Heading("Fit to the exact odds", 2),
        Paragraph("\n".join(intro)),
        table([Column(h) for h in headers], rows, audience="people"),
    ]
    if any(key.startswith("shoe_aware:") for key in keys):
        shown += [
            Heading("Calibration of the shoe-aware probabilities", 2),
            Paragraph(
                "rounds grouped by their predicted probability of each outcome: the mean "
                "prediction against the share observed"
            ),
            table([Column(h) for h in calibration_headers], calibration, audience="people"),
        ]
    return [
        *shown,
        records_table(test_records, _TEST_KINDS),
        records_table(bin_records, {"low": "number", "high": "number", "predicted": "number"}),
    ]


def _observed_text(t) -> str:
    if t.parts:
        return "/".join(f"{o:,}" for _, o, _ in t.parts)
    if t.key == "serial":
        return f"{t.observed:+.4f}"
    return f"{int(t.observed):,}"


def _expected_text(t) -> str:
    if t.key == "serial":
        return f"{t.expected:+.4f}"
    if t.parts:
        return "/".join(f"{e:,.1f}" for _, _, e in t.parts)
    return f"{t.expected:,.1f}"


def _number_text(t) -> str:
    if t.statistic_name == "count":
        return f"{int(t.statistic):,}"
    return f"{t.statistic:.3f}"


def _p_text(p: float | None) -> str:
    if p is None:
        return "-"
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.2g}"


def _tiny_p_text(p: float) -> str:
    """A p-value, one too small for a float (a normal tail past z = 38) as "< 1e-300"."""
    return "< 1e-300" if p == 0 else _p_text(p)
