"""``baccarat-odds strategy``: the best play of each information set of a game with a
player's decision, and each action's exact expected net there."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.cli.options import (
    add_bet_option,
    add_format_option,
    add_mode_option,
    add_progress_options,
    add_report_out_option,
    add_shoe_options,
    add_unknowns_option,
    check_report_out,
    deliver_report,
    exact_analysis,
    layout,
    paytable_from_args,
    reads,
    shoe_fields,
)
from analyzer.errors import AnalyzerError
from analyzer.game.games import Decision, Game, Hand
from analyzer.paytables.model import RESERVED_MODES, Paytable
from analyzer.reports.document import Block, Column, Document, Heading, Paragraph, table
from analyzer.reports.formats import REPORT_FORMATS

if TYPE_CHECKING:  # the analysis (pandas, Numba) loads when the command runs
    from analyzer.analysis.bets import BetResult
    from analyzer.analysis.decisions import Choice
    from analyzer.analysis.exact import Analysis

#: The paytable read when none is named: the shipped game with a decision.
DEFAULT_PAYTABLE = "lucky-draw-baccarat-1"
#: The formats that show what --summary changes (the tables for people).
_SUMMARY_FORMATS = ("text", "markdown", "html", "latex", "xlsx")
#: What a cell of the summary shows where its information sets are played differently.
MIXED = "mixed"

DESCRIPTION = """\
The strategy table of a paytable with a player's decision (Lucky Draw Baccarat: stand, or
buy a third card with a Draw bet; Peek Baccarat: keep, double or triple after some of the
first four cards are shown): per bet, every information set (the point values of the
cards the decision sees, and which are shown where that is random), its probability, the
exact expected net of each action given those cards, per base stake, and the best
action. The figures report gives
these bets are those of this play. --summary gives the best action by totals instead, as
a basic-strategy chart, a cell saying mixed where the cards making a total decide."""
EXAMPLES = """\
examples:
  baccarat-odds strategy                                 # Lucky Draw Baccarat, pay table 1
  baccarat-odds strategy --paytable lucky-draw-baccarat-2 --summary
  baccarat-odds strategy --format csv --out strategy.csv # every set, exact, for tools
  baccarat-odds strategy --decks 6 --remove "9 9 9 9" --format json
  baccarat-odds strategy --paytable peek-baccarat --unknowns s1=1/4,s2=35/64,s3=1/8"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    reads(
        parser.add_argument(
            "--paytable",
            default=DEFAULT_PAYTABLE,
            metavar="FILE|NAME",
            help="a paytable .toml file or a shipped name, of a game with a decision "
            f"(default: {DEFAULT_PAYTABLE})",
        ),
        "the paytable read",
        names=True,
    )
    add_unknowns_option(parser)
    add_shoe_options(parser)
    add_mode_option(parser, "both", "betting mode, or both (default): every mode")
    add_bet_option(parser)
    parser.add_argument(
        "--summary",
        action="store_true",
        help="instead of every information set, the best action by the totals of the cards "
        "seen (rows: the first hand's, columns: the other's), mixed where the cards making "
        "a total decide (listed under the chart); not with csv or json, whose rows are "
        "always every set",
    )
    add_format_option(parser, REPORT_FORMATS, "--out")
    add_report_out_option(parser)
    add_progress_options(parser)


def run(args: argparse.Namespace) -> tuple[str, int]:
    from analyzer.reports.writers import write_document

    if args.summary and args.format not in _SUMMARY_FORMATS:
        raise AnalyzerError(
            f"--summary is a chart for people: give it with --format "
            f"{', '.join(_SUMMARY_FORMATS)}, not {args.format} (whose rows are every set)"
        )
    check_report_out(args.format, args.report_out)  # before any work
    paytable = paytable_from_args(args)
    if decision_of(paytable).shown and args.summary:
        raise AnalyzerError(
            "--summary charts the totals of the cards seen; here which cards are shown is "
            "random (give the table of every set: leave out --summary)"
        )
    mode = None if args.mode in RESERVED_MODES else args.mode
    # (by default the bets the decision is for: on punto banco, the others have none)
    bets = args.bet or [bet_id for bet_id in paytable.bet_ids if bet_id in paytable.decided]
    analysis = exact_analysis(args, paytable, mode=mode, bets=bets)
    document = strategy_document(
        analysis,
        summary=args.summary,
        shoe=shoe_fields(args, analysis.shoe, paytable.decks),
        bets=args.bet,
    )
    content = write_document(document, args.format, **layout(args))
    return deliver_report(content, args.report_out), 0


def decision_of(paytable: Paytable) -> Decision:
    """The decision of ``paytable`` (its game's, or punto banco's ``[decision]``); a
    paytable without one (the seed game, Dragon Tiger) is refused in one line."""
    if paytable.decision is None:
        name = paytable.game_name if paytable.game is not None else "punto banco"
        raise AnalyzerError(
            f"{paytable.source}: {name} has no decision: its bets are played one way; see report"
        )
    return paytable.decision


# -- The document ------------------------------------------------------------------------------


def seen_label(game: Game, card: str) -> str:
    """A card the decision sees, as people read it: ``"player_card1"`` as ``"Player card 1"``
    (the hand's label)."""
    h, number = game.card_place(card)
    return f"{game.hands[h].label()} card {number}"


def _hand(game: Game, name: str) -> Hand:
    return next(hand for hand in game.hands if hand.name == name)


def _table_of(analysis: Analysis, result: BetResult) -> tuple[Choice, ...]:
    table = analysis.choices.get((result.bet.id, result.mode))
    if table is None:  # a decision whose actions deal no card: not solved per set
        raise AnalyzerError(
            f"{analysis.paytable.source}: bet {result.bet.id!r} is settled without its "
            "decision (no action deals a card): no strategy table"
        )
    return table


def strategy_records(analysis: Analysis) -> list[dict[str, Any]]:
    """Every information set of every (bet, mode) of ``analysis``, as the contract's rows:
    ``bet``, ``name``, ``mode``, each card seen (its point value, under the card's name),
    ``ways`` (the ordered ways of the set), ``probability`` (exact) and
    ``probability_float``, each action's ``ev_<action>`` (exact, per base stake) and
    ``ev_<action>_float``, and ``best``; the values exact (:class:`~fractions.Fraction`),
    as :meth:`~analyzer.analysis.exact.Analysis.strategy` gives them."""
    decision = analysis.paytable.decision
    records = []
    for result in analysis.results:
        table = _table_of(analysis, result)
        for choice in table:
            probability = choice.probability
            record: dict[str, Any] = {
                "bet": result.bet.id,
                "name": result.bet.name,
                "mode": result.mode,
                **choice.values_of(decision.sees),
                "ways": choice.ways,
                "probability": probability,
                "probability_float": float(probability),
            }
            for action in decision.actions:
                value = choice.values[action.name]
                record[f"ev_{action.name}"] = value
                record[f"ev_{action.name}_float"] = float(value)
            record["best"] = choice.best
            records.append(record)
    return records


def _seen_values(decision: Decision, choice: Choice) -> dict[str, int | None]:
    """Each card the decision may see: its value in this set, None where not shown."""
    shown = dict(zip(choice.cards, choice.seen, strict=True))
    return {card: shown.get(card) for card in decision.sees}


def basis_text(game: Game, result: BetResult) -> str:
    """What a bet's strategy table says, and its RTP under that play."""
    decision = game.decision
    seen = ", ".join(seen_label(game, card) for card in decision.sees)
    raised = [f"{a.name}: {a.stake} base stakes" for a in decision.actions if a.stake != 1]
    raised += [
        f"{a.name}: a fold, {a.pays} of the base stake whatever the cards"
        for a in decision.actions
        if a.folds
    ]
    stakes = f" (the stake of {'; '.join(raised)})" if raised else ""
    if decision.shown:
        chances = ", ".join(f"{k}: {p}" for k, p in decision.shown)
        seen = (
            f"the cards shown and their point values: a round shows some of {seen}, how "
            f"many by the chances {chances}, each set of that many alike"
        )
    else:
        seen = f"the point values seen: {seen}"
    fee = (
        f" The fee ({float(100 * result.bet.fee):g}% of the base stake, not in the EVs) is "
        "paid on the base stake only; the RTP is per base stake and fee."
        if result.bet.fee
        else ""
    )
    return (
        f"Each information set ({seen}) played by its best action. "
        f"EV: the exact expected net of each action given the cards seen, per base "
        f"stake{stakes}. Under this play the bet's RTP is {_percent(result.rtp)} (house "
        f"edge {_percent(result.house_edge)}), as report gives it.{fee}"
    )


def _percent(value: Fraction) -> str:
    return f"{float(100 * value):.4f}%"


def _sets_table(game: Game, table: Sequence[Choice]) -> Block:
    decision = game.decision
    columns = [
        *(Column(seen_label(game, card), "count") for card in decision.sees),
        Column("Probability", "percent", places=4),
        *(Column(f"EV {a.name}", "number", places=6, signed=True) for a in decision.actions),
        Column("Best"),
    ]
    rows = [
        [
            *choice.values_of(decision.sees).values(),
            choice.probability,
            *(choice.values[a.name] for a in decision.actions),
            choice.best,
        ]
        for choice in table
    ]
    return _people_table(columns, rows)


def _people_table(columns: Sequence[Column], rows: Sequence[Sequence[Any]]) -> Block:
    """A table people read (the labels of a row: its first column)."""
    return table(columns, rows, audience="people")


_COUNT_WORDS = {2: "two", 3: "three"}


def _seen_by_hand(game: Game) -> list[tuple[str, list[int]]]:
    """The hands whose cards the decision sees, in the game's order, each with the
    positions (in ``sees``) of its cards seen."""
    by_hand: dict[str, list[int]] = {}
    for position, card in enumerate(game.decision.sees):
        by_hand.setdefault(game.hands[game.card_place(card)[0]].name, []).append(position)
    return [(hand.name, by_hand[hand.name]) for hand in game.hands if hand.name in by_hand]


def _total_label(game: Game, hand_name: str, positions: list[int]) -> str:
    """What a hand's cards seen add up to, in words: "the Player's two-card total"."""
    hand = _hand(game, hand_name)
    numbers = [str(game.card_place(game.decision.sees[p])[1]) for p in positions]
    if len(numbers) == 1:
        return f"{hand.label()} card {numbers[0]}"
    if len(numbers) == hand.cards:
        return f"{hand.label()}'s {_COUNT_WORDS.get(len(numbers), len(numbers))}-card total"
    return f"total of {hand.label()} cards {', '.join(numbers[:-1])} and {numbers[-1]}"


def summary_blocks(game: Game, table: Sequence[Choice]) -> list[Block]:
    """The best action by the totals of the cards seen, a chart as basic strategy prints
    it: a cell per (first hand's total, other hand's total), its action where every set
    with those totals is played so, else mixed; each mixed cell then listed with the
    cards that make each action best. Exact: every set is read, none assumed."""
    hands = _seen_by_hand(game)

    def totals(choice: Choice) -> tuple[int, ...]:
        return tuple(sum(choice.seen[p] for p in positions) % 10 for _, positions in hands)

    cells: dict[tuple[int, ...], dict[str, list[Choice]]] = {}
    for choice in table:
        cells.setdefault(totals(choice), {}).setdefault(choice.best, []).append(choice)
    row_hand, row_positions = hands[0]
    row_label = _total_label(game, row_hand, row_positions)
    if len(hands) == 1:
        columns = [Column(row_label, "count"), Column("Best")]
        keys = sorted(cells)
        rows = [[key[0], _cell(cells[key])] for key in keys]
        caption = f"Rows: {_lower(row_label)}."
    else:
        other_hand, other_positions = hands[1]
        other_values = sorted({key[1] for key in cells})
        columns = [Column(row_label, "count"), *(Column(str(v)) for v in other_values)]
        rows = []
        for first in sorted({key[0] for key in cells}):
            rows.append([first, *(_cell(cells.get((first, v), {})) for v in other_values)])
        caption = (
            f"Rows: {_lower(row_label)}; columns: "
            f"{_lower(_total_label(game, other_hand, other_positions))}."
        )
    mixed = {key: cell for key, cell in sorted(cells.items()) if len(cell) > 1}
    blocks: list[Block] = [
        Paragraph(
            f"{caption} Each cell: the best action of every information set with those "
            f"totals, or {MIXED} where the cards that make a total change it (listed "
            "below); - where no set has those totals.",
            prose=True,
        ),
        _people_table(columns, rows),
    ]
    if mixed:
        lines = [_mixed_line(game, hands, key, cell) for key, cell in mixed.items()]
        blocks.append(Paragraph("\n".join(lines)))
    else:
        blocks.append(Paragraph("No cell is mixed: the totals alone decide.", prose=True))
    return blocks


def _lower(label: str) -> str:
    """A label as a sentence names it: "the Player's two-card total", "the Dealer's card 1"."""
    if label.startswith("total"):
        return f"the {label}"
    if "'s " in label:
        return f"the {label}"
    hand, _, number = label.rpartition(" card ")
    return f"the {hand}'s card {number}"


def _cell(actions: dict[str, list[Choice]]) -> str:
    if not actions:
        return "-"
    return next(iter(actions)) if len(actions) == 1 else MIXED


def _mixed_line(
    game: Game,
    hands: list[tuple[str, list[int]]],
    key: tuple[int, ...],
    cell: dict[str, list[Choice]],
) -> str:
    """A mixed cell, said: its totals, then each action with the cards seen that make
    it best ("draw with 0+6, 1+5"), each hand's cards in order (two orders of one set of
    cards are one entry where they are played alike, as they are in every shipped game)."""
    where = ", ".join(
        f"{_total_label(game, name, positions)} = {total}"
        for (name, positions), total in zip(hands, key, strict=True)
    )

    def cards(seen: tuple[int, ...], ordered: bool) -> str:
        parts = []
        for _, positions in hands:
            values = [seen[p] for p in positions]
            if len(values) > 1:  # (a hand of one card seen: its total says it)
                parts.append("+".join(map(str, values if ordered else sorted(values))))
        return " / ".join(parts)

    best_of_cards: dict[str, set[str]] = {}
    for action, choices in cell.items():
        for choice in choices:
            best_of_cards.setdefault(cards(choice.seen, False), set()).add(action)
    said = []
    for action, choices in cell.items():
        entries = dict.fromkeys(
            cards(choice.seen, len(best_of_cards[cards(choice.seen, False)]) > 1)
            for choice in choices
        )
        said.append(f"{action} with {', '.join(entries)}")
    return f"{where}: {'; '.join(said)}"


def strategy_document(
    analysis: Analysis,
    *,
    summary: bool = False,
    shoe: dict[str, Any] | None = None,
    bets: Sequence[str] | None = None,
) -> Document:
    """The strategy of every (bet, mode) of ``analysis`` (a game with a decision) as a
    document. People read, per bet, a heading (its name and mode), what the table says
    (with the bet's RTP under this play) and the table: a row per information set, the
    point values seen, its probability, each action's exact expected net per base stake
    (as a signed decimal) and the best action, in the walk's order (by the values seen);
    with ``summary``, the chart by totals instead (:func:`summary_blocks`). Tools read a
    row per (bet, mode, information set) (:func:`strategy_records`), in CSV and JSON
    alike, the JSON under the strategy contract with ``bets`` (each bet's RTP under this
    play) and ``decision`` (the cards seen and the actions). ``shoe`` is the shoe as the
    contract writes it (default: the analysis's); ``bets``: the bets asked for."""
    from analyzer.reports.contract import (
        decision_record,
        envelope,
        played_options,
        shoe_record,
    )
    from analyzer.reports.document import records_table
    from analyzer.reports.tables import shoe_text
    from analyzer.reports.writers import tool_rows

    paytable = analysis.paytable
    game = paytable.decision_hands
    decision = game.decision
    blocks: list[Block] = []
    for result in analysis.results:
        table = _table_of(analysis, result)
        blocks += [
            Heading(f"{result.bet.display_name()} ({result.mode})", 2),
            Paragraph(basis_text(game, result), tight=True, prose=True),
        ]
        blocks += summary_blocks(game, table) if summary else [_sets_table(game, table)]
    records = strategy_records(analysis)
    kinds = {"ways": "count", **{card: "count" for card in decision.sees}}
    tools = records_table(records, kinds)
    blocks.append(tools)
    options = {
        "modes": list(analysis.modes),
        "bets": None if bets is None else list(bets),
        **played_options(paytable),
    }
    data = envelope(
        "strategy",
        paytable=paytable,
        shoe=shoe_record(analysis.shoe) if shoe is None else shoe,
        options=options,
        rows=tool_rows(tools),
        bets=[
            {
                "bet": r.bet.id,
                "name": r.bet.name,
                "mode": r.mode,
                "rtp": r.rtp,
                "rtp_percent": float(100 * r.rtp),
                "house_edge": r.house_edge,
                "house_edge_percent": float(100 * r.house_edge),
            }
            for r in analysis.results
        ],
        decision=decision_record(paytable),
    )
    title = (
        f"{paytable.name}: {shoe_text(analysis.shoe)}, exact; the best play of each information set"
    )
    return Document(title, tuple(blocks), _exact_as_text(data))


def _exact_as_text(data: dict[str, Any]) -> dict[str, Any]:
    """The document's JSON with its exact values as ``"p/q"`` (the rows already are)."""
    from analyzer.reports.contract import json_value

    return {key: json_value(value) for key, value in data.items()}
