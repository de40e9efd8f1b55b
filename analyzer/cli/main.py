"""The ``baccarat-odds`` command line: ``report`` (the main job), ``play``, ``verify``, ``docs``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import pandas as pd

from analyzer.analysis.bets import evaluate_bet
from analyzer.analysis.eor import effects_of_removal, linear_counts
from analyzer.analysis.exact import Analysis, analyze, resolve_modes
from analyzer.analysis.verify import load_claims, published_max_rtp, verify_claims
from analyzer.cli.options import add_paytable_option, add_shoe_options, shoe_from_args
from analyzer.cli.runs import add_run_commands, run_count, run_simulate
from analyzer.engine.outcomes import round_table
from analyzer.errors import PROG, AnalyzerError, tell
from analyzer.files import (
    check_folder_target,
    check_writable,
    output_error,
    write_tree_atomically,
)
from analyzer.game.cards import parse_cards
from analyzer.game.rules import deal_round
from analyzer.game.shoe import Shoe
from analyzer.interrupts import interrupt_requested, interrupts_raised
from analyzer.paytables.library import load_paytable
from analyzer.paytables.model import Paytable
from analyzer.reports.i18n import LANGUAGES, word
from analyzer.reports.plots import effects_figure, save_png
from analyzer.reports.tables import (
    EXTENSIONS,
    FORMATS,
    csv_text,
    fraction_text,
    json_text,
    render_report,
)
from analyzer.runs.runner import Interrupted


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise AnalyzerError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Exact combinatorial odds for baccarat.")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    commands.required = True

    report = commands.add_parser(
        "report", help="exact house edge of every bet (default: the seed game, 8 decks)"
    )
    add_paytable_option(report)
    add_shoe_options(report)
    report.add_argument(
        "--mode",
        default="both",
        help="betting mode, or both (default): e.g. commission, no_commission",
    )
    report.add_argument(
        "--bet", action="append", metavar="ID", help="only this bet (repeatable); default every bet"
    )
    report.add_argument(
        "--detail", action="store_true", help="also print each bet's breakdown by paying line"
    )
    report.add_argument("--format", choices=FORMATS, default="text")
    report.add_argument(
        "--lang",
        choices=LANGUAGES,
        default="en",
        help="bet names and headers in English, Tagalog or Malay",
    )
    report.set_defaults(run=_run_report)

    play = commands.add_parser("play", help="deal one round from given cards and settle every bet")
    play.add_argument(
        "cards",
        nargs="+",
        metavar="CARD",
        help="cards in deal order: P B P B, then third cards (e.g. 2S 3H 2D KC 8H)",
    )
    add_paytable_option(play)
    play.add_argument(
        "--mode", default=None, help="betting mode for the JSON 'bets' object (default: the first)"
    )
    play.add_argument("--format", choices=("text", "json"), default="text")
    play.set_defaults(run=_run_play)

    verify = commands.add_parser("verify", help="check published figures in a claims file")
    verify.add_argument("claims", metavar="CLAIMS.toml")
    add_shoe_options(verify)
    verify.add_argument("--format", choices=("text", "json", "csv"), default="text")
    verify.set_defaults(run=_run_verify)

    eor = commands.add_parser(
        "eor", help="exact effect of removing one card of each rank on each bet, and counts"
    )
    add_paytable_option(eor)
    add_shoe_options(eor)
    eor.add_argument("--mode", default="both", help="betting mode, or both (default)")
    eor.add_argument("--bet", action="append", metavar="ID", help="only this bet (repeatable)")
    eor.add_argument("--format", choices=("text", "markdown", "csv", "json"), default="text")
    eor.add_argument("--plot", metavar="FILE.png", help="also draw the EORs as bar charts")
    eor.set_defaults(run=_run_eor)

    add_run_commands(commands, run_simulate, run_count)

    docs = commands.add_parser(
        "docs", help="write a paytable's odds tables in every format and language"
    )
    add_paytable_option(docs)
    add_shoe_options(docs)
    docs.add_argument("--out", required=True, metavar="DIR", help="folder to write")
    docs.set_defaults(run=_run_docs)
    return parser


def _analysis(args: argparse.Namespace, paytable: Paytable, **kwargs) -> Analysis:
    analysis = analyze(paytable=paytable, shoe=shoe_from_args(args, paytable.decks), **kwargs)
    for warning in analysis.warnings():
        tell(f"warning: {warning}")
    return analysis


def _run_report(args: argparse.Namespace) -> tuple[str, int]:
    paytable = load_paytable(args.paytable)
    mode = None if args.mode == "both" else args.mode
    analysis = _analysis(args, paytable, mode=mode, bets=args.bet)
    whole_game = args.bet is None and mode is None
    claim = published_max_rtp(paytable) if whole_game else None
    text = render_report(
        analysis, args.format, detail=args.detail, claimed_max_rtp=claim, lang=args.lang
    )
    return text, 0


def _run_play(args: argparse.Namespace) -> tuple[str, int]:
    paytable = load_paytable(args.paytable)
    chosen = paytable.modes[0] if args.mode is None else resolve_modes(paytable, args.mode)[0]
    cards = parse_cards(args.cards)
    try:  # the cards must all come out of one shoe of the paytable's decks
        Shoe.standard(paytable.decks).remove(cards)
    except AnalyzerError as exc:
        raise AnalyzerError(f"{exc} of {paytable.decks} deck(s) ({paytable.source})") from None
    dealt = deal_round(cards)
    table = round_table(dealt)
    by_mode = {
        mode: {
            bet.id: evaluate_bet(table, bet, mode).expected_value
            for bet, mode in paytable.offered((mode,))
        }
        for mode in paytable.modes
    }
    if args.format == "json":
        bets = by_mode[chosen]
        text = json_text(
            {
                "player_cards": [str(c) for c in dealt.player_cards],
                "banker_cards": [str(c) for c in dealt.banker_cards],
                "player_score": dealt.player_score,
                "banker_score": dealt.banker_score,
                "winner": dealt.winner,
                "natural": dealt.natural,
                "player_reason": dealt.player_reason,
                "banker_reason": dealt.banker_reason,
                "mode": chosen,
                "bets": {bet: float(net) for bet, net in bets.items()},
                "bets_exact": {bet: fraction_text(net) for bet, net in bets.items()},
                "bets_by_mode": {
                    mode: {bet: float(net) for bet, net in nets.items()}
                    for mode, nets in by_mode.items()
                },
            }
        )
        return text, 0
    high, low = sorted((dealt.player_score, dealt.banker_score), reverse=True)
    winner = "Tie" if dealt.winner == "tie" else f"{dealt.winner.capitalize()} ({high} to {low})"
    lines = [
        f"Player: {' '.join(map(str, dealt.player_cards)):<12} score {dealt.player_score}"
        f"   {dealt.player_reason}",
        f"Banker: {' '.join(map(str, dealt.banker_cards)):<12} score {dealt.banker_score}"
        f"   {dealt.banker_reason}",
        f"Winner: {winner}" + (" on a natural" if dealt.natural else ""),
        "",
        f"{'Bet':<20}{'Mode':<26}{'Result':<8}Per unit",
    ]
    for bet_id in paytable.bet_ids:
        per_mode = {mode: nets[bet_id] for mode, nets in by_mode.items() if bet_id in nets}
        same = len(set(per_mode.values())) == 1 and len(per_mode) == len(paytable.modes) > 1
        for mode, net in per_mode.items():
            result = "win" if net > 0 else "push" if net == 0 else "lose"
            shown_mode = "all modes" if same else word(mode, "en")
            lines.append(f"{bet_id:<20}{shown_mode:<26}{result:<8}{float(net):+g}")
            if same:
                break
    return "\n".join(lines) + "\n", 0


def _run_verify(args: argparse.Namespace) -> tuple[str, int]:
    claims = load_claims(args.claims)
    custom = args.decks is not None or args.shoe is not None or args.remove
    shoe = shoe_from_args(args, 8) if custom else None
    try:
        results = verify_claims(claims, shoe)
    except AnalyzerError as exc:
        raise AnalyzerError(f"{args.claims}: {exc}") from None
    failed = int((results["result"] == "FAIL").sum())
    if args.format == "json":
        text = json_text(results.to_dict("records"))
    elif args.format == "csv":
        text = csv_text(results)
    else:
        shown = results.drop(columns="source")
        text = shown.to_string(index=False) + "\n\n"
        text += f"{len(results) - failed} passed, {failed} failed\n"
        for row in results[results["result"] == "FAIL"].itertuples():
            text += (
                f"FAIL claim {row.claim}: {row.quantity} of {row.bet} ({row.paytable}) is "
                f"{row.computed}, published {row.claimed}\n"
            )
    return text, 1 if failed else 0


def _run_eor(args: argparse.Namespace) -> tuple[str, int]:
    paytable = load_paytable(args.paytable)
    if args.plot is not None:
        check_writable(args.plot, "--plot", (".png",))
    shoe = shoe_from_args(args, paytable.decks)
    mode = None if args.mode == "both" else args.mode
    effects = effects_of_removal(paytable, shoe, mode, args.bet)
    counts = {(c.bet, c.mode): c for c in linear_counts(effects)}
    effects["tag"] = [
        counts[(b, m)].tags[r]
        for b, m, r in zip(effects["bet"], effects["mode"], effects["rank"], strict=True)
    ]
    effects["betting_correlation"] = [
        counts[(b, m)].betting_correlation
        for b, m in zip(effects["bet"], effects["mode"], strict=True)
    ]
    effects["delta_ev_exact"] = effects["delta_ev_exact"].map(fraction_text)
    if args.plot is not None:
        try:
            save_png(effects_figure(effects), args.plot)
        except OSError as exc:
            raise output_error("--plot", args.plot, exc) from None
    rows = effects.drop(columns="cards")
    if args.format == "json":
        return json_text(rows.to_dict("records")), 0
    if args.format == "csv":
        return csv_text(rows), 0
    wide = effects.assign(
        bet_mode=effects["bet"] + " (" + effects["mode"] + ")",
        change=(100 * effects["delta_ev"]).map(lambda v: f"{v:+.5f}"),
    ).pivot(index="bet_mode", columns="rank", values="change")
    wide = wide.loc[
        list(dict.fromkeys(effects["bet"] + " (" + effects["mode"] + ")")),
        list(dict.fromkeys(effects["rank"])),
    ]
    wide.index.name = "EV change (% of a unit) per card removed"
    count_rows = pd.DataFrame(
        [
            {
                "bet": f"{c.bet} ({c.mode})",
                "tags": " ".join(f"{rank}={tag:+d}" for rank, tag in c.tags.items()),
                "betting correlation": f"{c.betting_correlation:.4f}",
            }
            for c in counts.values()
        ]
    )
    title = f"{paytable.name}: {shoe.describe()}"
    if args.format == "markdown":
        body = [
            f"## {title}",
            "",
            wide.reset_index().to_markdown(index=False),
            "",
            "### Linear counts",
            "",
            count_rows.to_markdown(index=False),
        ]
    else:
        body = [
            title,
            "",
            wide.reset_index().to_string(index=False),
            "",
            "Linear counts",
            count_rows.to_string(index=False),
        ]
    return "\n".join(body) + "\n", 0


def render_docs(analysis: Analysis, claim: str | None) -> dict[str, str]:
    """Every table of a paytable: ``LANG/summary.EXT`` and ``LANG/detail.EXT``."""
    files = {}
    for lang in LANGUAGES:
        for fmt in FORMATS:
            for name, detail in (("summary", False), ("detail", True)):
                files[f"{lang}/{name}.{EXTENSIONS[fmt]}"] = render_report(
                    analysis, fmt, detail=detail, claimed_max_rtp=claim, lang=lang
                )
    return files


def _run_docs(args: argparse.Namespace) -> tuple[str, int]:
    paytable = load_paytable(args.paytable)
    out = check_folder_target(args.out, "--out")
    analysis = _analysis(args, paytable)
    files = render_docs(analysis, published_max_rtp(paytable))  # all rendered before any write
    try:
        write_tree_atomically(out, files)
    except OSError as exc:
        raise output_error("--out", out, exc) from None
    return f"wrote {len(files)} files to {out}\n", 0


def _write_stdout(output: str) -> None:
    """Write the result; a closed or full standard output is one clear error."""
    if sys.stdout is None:
        raise AnalyzerError("cannot write the output: standard output is closed")
    try:
        try:
            sys.stdout.write(output)
        except UnicodeEncodeError:
            # A terminal or pipe set to ASCII or Latin-1: the result is UTF-8 text (as every
            # file this tool writes), so it goes out as UTF-8 bytes rather than not at all.
            buffer = getattr(sys.stdout, "buffer", None)
            if buffer is None:
                raise AnalyzerError(
                    "cannot write the output: standard output cannot show these characters"
                ) from None
            sys.stdout.flush()
            buffer.write(output.encode("utf-8"))
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head: the reader has what it wanted
        _silence_stdout()
    except OSError as exc:
        _silence_stdout()
        raise AnalyzerError(f"cannot write the output: {exc.strerror or exc}") from None


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush of what is
    still buffered cannot fail again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; the exit status: 0, 1 (a claim failed), 2 (an error), 130."""
    try:
        with interrupts_raised():
            args = build_parser().parse_args(argv)
            output, status = args.run(args)
            _write_stdout(output)
    except AnalyzerError as exc:
        tell(f"error: {exc}")
        return 2
    except Interrupted as exc:
        tell(str(exc))
        return 130
    except KeyboardInterrupt:
        tell("interrupted: nothing was written")
        return 130
    except Exception:
        if not interrupt_requested():
            raise  # a bug keeps its traceback
        # An interrupt inside a library (a C extension's import, say) can surface as
        # another exception: it is still the user's Ctrl-C.
        tell("interrupted: nothing was written")
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
