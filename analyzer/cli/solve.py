"""``baccarat-odds solve``: the two-person game between Player and Banker, solved exactly."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.cli.options import (
    add_format_option,
    add_progress_options,
    decks_number,
    layout,
    reads,
    writes,
)
from analyzer.files import check_writable, output_error, text_writer, write_atomically
from analyzer.game.rules import (
    CHOOSE,
    DRAW,
    RULE_SET_NAMES,
    STAND,
    STANDARD,
    TOTALS,
    Cell,
)
from analyzer.reports.formats import prose

if TYPE_CHECKING:  # the analysis, pandas and Numba load when a command runs
    from analyzer.analysis.solve import GameSolution

DESCRIPTION = """\
Solve the two-person zero-sum game between Player and Banker exactly: no commission, ties
push. Each side sees its own two-card total, the Banker also the Player's third card (or
that the Player stood); the Player decides in the rules' 'chooses' cells (chemin de fer:
5) and plays the rules elsewhere, the Banker decides in every cell, whatever the rules'
Banker table says. Prints the game's value to the Banker as an exact fraction and each
side's optimal strategy: every cell drawn (D), stood (S), or drawn with the exact
probability shown (a mixed cell). The paytable's bets and [strategy] play no part, only
its drawing rules and decks."""
EXAMPLES = """\
examples:
  baccarat-odds solve                                # chemin de fer, the paytable's decks
  baccarat-odds solve --paytable chemin-de-fer --decks inf   # the classical solution
  baccarat-odds solve --decks 6 --format json
  baccarat-odds solve --paytable seed-game --decks 1 # the standard rules' game"""

#: The rule set solved when no paytable is named.
DEFAULT_GAME = "chemin-de-fer"
#: The decks of a rule set named without a paytable (the project's default shoe).
DEFAULT_DECKS = 8


def _play(p: Fraction) -> str:
    """How a decision cell is played, for people."""
    from analyzer.analysis.solve import fraction_text

    if 0 < p < 1:
        return f"draws with probability {fraction_text(p)} = {float(p):.6f} (mixed)"
    return "draws" if p == 1 else "stands"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    reads(
        parser.add_argument(
            "--paytable",
            default=DEFAULT_GAME,
            metavar="FILE|NAME",
            help="a paytable .toml file, a shipped paytable or a rule set "
            f"({', '.join(RULE_SET_NAMES)}) whose drawing rules are played (default: "
            f"{DEFAULT_GAME})",
        ),
        "the paytable read",
        names=True,
    )
    parser.add_argument(
        "--decks",
        type=decks_number,
        default=None,
        metavar="N|inf",
        help="number of 52-card decks, 1 to 27, or inf for the infinite deck (cards dealt "
        f"with replacement) (default: the paytable's, {DEFAULT_DECKS} for a rule set)",
    )
    add_format_option(parser, ("text", "json"))
    writes(
        parser.add_argument(
            "--out",
            metavar="FILE",
            help="write the result to FILE instead of standard output (default: standard output)",
        )
    )
    add_progress_options(parser)


def run(args: argparse.Namespace) -> tuple[str, int]:
    from analyzer.analysis.solve import solve_game
    from analyzer.api.exact import game_rules
    from analyzer.reports.tables import json_text

    if args.out is not None:
        check_writable(args.out, "--out")
    rules, default_decks, what = game_rules(args.paytable)
    decks = default_decks if args.decks is None else args.decks
    solution = solve_game(rules, decks)
    if args.format == "json":
        from analyzer.paytables.library import is_path, library_names, load_paytable
        from analyzer.reports.outputs import solution_data

        named = is_path(args.paytable) or args.paytable in library_names()
        paytable = load_paytable(args.paytable) if named else None
        text = json_text(solution_data(solution, what, paytable))
    else:
        text = prose(solution_text(solution, what), layout(args)["width"])
    if args.out is None:
        return text, 0
    try:
        write_atomically(args.out, text_writer(text), held=True)
    except OSError as exc:
        raise output_error("--out", args.out, exc) from None
    return "", 0


# -- Text ----------------------------------------------------------------------------------


def _ranges(values: Sequence[int]) -> str:
    """``[0, 1, 2, 4]`` as ``"0-2,4"``."""
    parts: list[str] = []
    for v in sorted(values):
        if parts and parts[-1][1] == v - 1:
            parts[-1] = (parts[-1][0], v)
        else:
            parts.append((v, v))
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in parts)


def _shown(probability: Fraction) -> str:
    from analyzer.analysis.solve import fraction_text

    if probability == 1:
        return "D"
    if probability == 0:
        return "S"
    return fraction_text(probability)


def solution_text(solution: GameSolution, what: str) -> str:
    """The solution for people: the value, the Player's cells, the Banker's table."""
    from analyzer.analysis.solve import BANKER_COLUMNS, fraction_text

    rules = solution.rules
    value = solution.value
    lines = [
        f"The game of Player against Banker, {what}, on {solution.shoe_text()}: no "
        "commission, ties push.",
        f"Value to the Banker: {fraction_text(value)} = {float(value):+.8f} per coup "
        f"({float(100 * value):+.4f}%); to the Player {float(-value):+.8f}.",
        "",
    ]
    totals = [t for t in TOTALS if t not in rules.naturals]
    fixed = []
    for action, verb in ((DRAW, "draws"), (STAND, "stands")):
        on = [t for t in totals if rules.player[t] == action]
        if on:
            fixed.append(f"{verb} on {_ranges(on)}")
    if solution.player and not fixed:
        lines.append("Player: decides on every total but a natural:")
        for cell, p in solution.player.items():
            lines.append(f"  {cell}: {_play(p)}")
    elif solution.player:
        lines.append(
            f"Player: {', '.join(fixed)} (the rules); decides on "
            f"{_ranges([c.total for c in solution.player])}:"
        )
        for cell, p in solution.player.items():
            lines.append(f"  {cell}: {_play(p)}")
    elif fixed:
        lines.append(f"Player: {', '.join(fixed)} (the rules; no decision of its own).")
    else:
        lines.append("Player: every total is a natural: no one ever draws.")
    lines += [
        "",
        "Banker: decides in every cell. Rows: the Banker's two-card total; columns: the "
        "Player's third card, or stood.",
        "D draws, S stands, a fraction: draws with that probability (a mixed cell).",
        "",
    ]
    headers = ["total", *map(str, range(10)), "stood"]
    rows = []
    for b in totals:
        row = [str(b)]
        for x in BANKER_COLUMNS:
            row.append(_shown(solution.banker[Cell("banker", b, x)]))
        rows.append(row)
    widths = [max(len(r[i]) for r in [headers, *rows]) for i in range(len(headers))]
    for row in [headers, *rows]:
        lines.append("  " + "  ".join(v.rjust(w) for v, w in zip(row, widths, strict=True)))
    lines.append("")
    mixed = solution.mixed
    everything = solution.player | solution.banker
    if mixed:
        lines.append(
            "Mixed cells: "
            + ", ".join(f"{cell} = {fraction_text(everything[cell])}" for cell in mixed)
            + "."
        )
    else:
        lines.append("Mixed cells: none (both optimal strategies are pure).")
    departs = []
    for cell, p in solution.banker.items():
        action = STANDARD.banker[cell.total][cell.column]
        if action == CHOOSE or p != Fraction(action == DRAW):
            departs.append(str(cell))
    if not solution.banker:
        lines.append("The Banker has no cell to decide: every total is a natural.")
    elif departs:
        lines.append(
            "The Banker departs from the standard (punto banco) table in: "
            + ", ".join(departs)
            + "."
        )
    else:
        lines.append("The Banker plays the standard (punto banco) table.")
    return "\n".join(lines) + "\n"
