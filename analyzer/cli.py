"""The ``baccarat-odds`` command line: ``report`` (the main job) and ``play``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from analyzer.analysis import analyze, resolve_modes
from analyzer.bets import evaluate_bet, table_columns
from analyzer.cards import parse_cards
from analyzer.errors import AnalyzerError
from analyzer.outcomes import round_table
from analyzer.report import FORMATS, MODE_NAMES, fraction_text, render_report
from analyzer.rules import deal_round
from analyzer.seed_game import CLAIMED_MAX_RTP, seed_paytable

PROG = "baccarat-odds"


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise AnalyzerError(message)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Exact combinatorial odds for baccarat.")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    commands.required = True

    report = commands.add_parser(
        "report", help="exact house edge of every bet (default: the seed game, 8 decks)"
    )
    report.add_argument(
        "--decks",
        type=_positive_int,
        default=None,
        help="number of 52-card decks (default: the paytable's, 8)",
    )
    report.add_argument(
        "--mode", default="both", help="betting mode: commission, no_commission or both (default)"
    )
    report.add_argument(
        "--bet", action="append", metavar="ID", help="only this bet (repeatable); default every bet"
    )
    report.add_argument(
        "--detail", action="store_true", help="also print each bet's breakdown by paying line"
    )
    report.add_argument("--format", choices=FORMATS, default="text")
    report.set_defaults(run=_run_report)

    play = commands.add_parser("play", help="deal one round from given cards and settle every bet")
    play.add_argument(
        "cards",
        nargs="+",
        metavar="CARD",
        help="cards in deal order: P B P B, then third cards (e.g. 2S 3H 2D KC 8H)",
    )
    play.add_argument(
        "--mode",
        default="commission",
        help="betting mode for the JSON 'bets' object (default: commission)",
    )
    play.add_argument("--format", choices=("text", "json"), default="text")
    play.set_defaults(run=_run_play)
    return parser


def _run_report(args: argparse.Namespace) -> str:
    mode = None if args.mode == "both" else args.mode
    analysis = analyze(decks=args.decks, mode=mode, bets=args.bet)
    claim = CLAIMED_MAX_RTP if args.bet is None else None
    return render_report(analysis, args.format, detail=args.detail, claimed_max_rtp=claim)


def _signed(value) -> str:
    return f"{float(value):+g}"


def _run_play(args: argparse.Namespace) -> str:
    paytable = seed_paytable()
    (chosen_mode,) = resolve_modes(paytable, args.mode) if args.mode != "both" else (None,)
    dealt = deal_round(parse_cards(args.cards))
    table = round_table(dealt)
    columns = table_columns(table)
    by_mode = {
        mode: {
            bet.id: evaluate_bet(table, bet, mode, columns).expected_value
            for bet, mode in paytable.offered((mode,))
        }
        for mode in paytable.modes
    }
    if args.format == "json":
        bets = by_mode[chosen_mode or paytable.modes[0]]
        return (
            json.dumps(
                {
                    "player_cards": [str(c) for c in dealt.player_cards],
                    "banker_cards": [str(c) for c in dealt.banker_cards],
                    "player_score": dealt.player_score,
                    "banker_score": dealt.banker_score,
                    "winner": dealt.winner,
                    "natural": dealt.natural,
                    "player_reason": dealt.player_reason,
                    "banker_reason": dealt.banker_reason,
                    "mode": chosen_mode or paytable.modes[0],
                    "bets": {bet: float(net) for bet, net in bets.items()},
                    "bets_exact": {bet: fraction_text(net) for bet, net in bets.items()},
                    "bets_by_mode": {
                        mode: {bet: float(net) for bet, net in nets.items()}
                        for mode, nets in by_mode.items()
                    },
                },
                indent=2,
            )
            + "\n"
        )
    lines = [
        f"Player: {' '.join(map(str, dealt.player_cards)):<12} score {dealt.player_score}"
        f"   {dealt.player_reason}",
        f"Banker: {' '.join(map(str, dealt.banker_cards)):<12} score {dealt.banker_score}"
        f"   {dealt.banker_reason}",
        "Winner: "
        + (
            "Tie"
            if dealt.winner == "tie"
            else f"{dealt.winner.capitalize()} "
            f"({max(dealt.player_score, dealt.banker_score)} to "
            f"{min(dealt.player_score, dealt.banker_score)})"
        )
        + (" on a natural" if dealt.natural else ""),
        "",
        f"{'Bet':<20}{'Mode':<26}{'Result':<8}Per unit",
    ]
    for bet_id in paytable.bet_ids:
        per_mode = {mode: nets[bet_id] for mode, nets in by_mode.items() if bet_id in nets}
        same = len(set(per_mode.values())) == 1 and len(per_mode) == len(paytable.modes)
        for mode, net in per_mode.items():
            result = "win" if net > 0 else "push" if net == 0 else "lose"
            shown_mode = "all modes" if same else MODE_NAMES.get(mode, mode)
            lines.append(f"{bet_id:<20}{shown_mode:<26}{result:<8}{_signed(net)}")
            if same:
                break
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        output = args.run(args)
    except AnalyzerError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(output)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
