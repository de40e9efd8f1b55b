"""``baccarat-odds play``: one round dealt from given cards, and every bet settled."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from analyzer.cli.options import (
    add_format_option,
    add_mode_option,
    add_paytable_option,
    layout,
    paytable_from_args,
)
from analyzer.errors import AnalyzerError
from analyzer.game.cards import Card, parse_cards
from analyzer.game.fields import columns_of_round
from analyzer.game.rules import deal_round
from analyzer.game.shoe import INFINITE, Shoe
from analyzer.paytables.model import Paytable, resolve_modes, result_kind
from analyzer.paytables.settle import Settlement
from analyzer.reports.document import Column, Document, Paragraph, table
from analyzer.reports.formats import ALL_MODES, fraction_text, same_in_every_mode
from analyzer.reports.i18n import word
from analyzer.reports.writers import write_document

if TYPE_CHECKING:  # (the module is imported when --special is given)
    from analyzer.paytables.multipliers import Specials

DESCRIPTION = """\
Deal one round from the cards given, in deal order: who drew a third card and why (the
drawing rules), the winner, and what every bet of the paytable wins or loses per unit."""
#: The five Gold Cards of the golden-wealth example round.
_GOLD_CARDS = "7S=8,AH=2,2C=3,9D=2,KH=5"
EXAMPLES = f"""\
examples:
  baccarat-odds play 2S 3H 2D KC 8H                 # Player draws the 8H, Banker stands
  baccarat-odds play KS 5H 6D AC --format json
  baccarat-odds play 9S 8H KD QC --paytable ez-baccarat   # naturals: nobody draws
  baccarat-odds play 7S 3H 2D KC --paytable golden-wealth-baccarat --special {_GOLD_CARDS}"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "cards",
        nargs="+",
        metavar="CARD",
        help="cards in deal order: P B P B, then third cards (e.g. 2S 3H 2D KC 8H)",
    )
    add_paytable_option(parser)
    parser.add_argument(
        "--special",
        metavar="CARD=X,...",
        help="the round's special cards and their multipliers, for a paytable with "
        '[multipliers] (e.g. "7S=8,AH=2"; default: none drawn)',
    )
    add_mode_option(
        parser, None, "only this betting mode's rows in the JSON 'bets' (default: every mode)"
    )
    add_format_option(parser, ("text", "json"))


def run(args: argparse.Namespace) -> tuple[str, int]:
    from analyzer.reports.contract import dealt_shoe_record, envelope, played_options

    paytable = paytable_from_args(args)
    modes = resolve_modes(paytable, args.mode)  # (one mode, or every mode)
    cards = parse_cards(args.cards)
    try:  # the cards must all come out of one shoe of the paytable's decks
        if paytable.decks != INFINITE:  # (any cards come out of an infinite deck)
            Shoe.standard(paytable.decks).remove(cards)
    except AnalyzerError as exc:
        raise AnalyzerError(f"{exc} of {paytable.decks} deck(s) ({paytable.source})") from None
    specials: Specials = {}
    if args.special is not None:
        from analyzer.paytables.multipliers import parse_specials

        specials = parse_specials(args.special, paytable.multipliers)
    dealt = deal_round(cards, paytable.rules, paytable.strategy)
    columns = columns_of_round(dealt)
    player = [(c.rank, c.suit) for c in dealt.player_cards]
    banker = [(c.rank, c.suit) for c in dealt.banker_cards]
    settled = {
        mode: {
            bet.id: Settlement(bet).dealt_result(columns, player, banker, specials)
            for bet, mode in paytable.offered((mode,))
        }
        for mode in paytable.modes
    }
    rows = [
        {
            "bet": bet.id,
            "name": bet.display_name(),
            "mode": mode,
            "result": result_kind(settled[mode][bet.id][0] + paytable.fee),
            "net": float(settled[mode][bet.id][0]),
            "net_exact": fraction_text(settled[mode][bet.id][0]),
            "multiplier": fraction_text(settled[mode][bet.id][1]),
        }
        for bet, mode in paytable.offered(modes)
    ]
    round_record = {
        "player_cards": [str(c) for c in dealt.player_cards],
        "banker_cards": [str(c) for c in dealt.banker_cards],
        "player_score": dealt.player_score,
        "banker_score": dealt.banker_score,
        "winner": dealt.winner,
        "natural": dealt.natural,
        "player_reason": dealt.player_reason,
        "banker_reason": dealt.banker_reason,
    }
    options = {
        "cards": [str(card) for card in cards],
        "modes": list(modes),
        "special_cards": {
            str(Card(rank, suit)): fraction_text(value) for (rank, suit), value in specials.items()
        },
        **played_options(paytable),
    }
    data = None
    if args.format == "json":  # (the envelope reads the package's version: JSON only)
        data = envelope(
            "play",
            paytable=paytable,
            shoe=dealt_shoe_record(paytable.decks),
            options=options,
            rows=rows,
            round=round_record,
        )
    high, low = sorted((dealt.player_score, dealt.banker_score), reverse=True)
    winner = "Tie" if dealt.winner == "tie" else f"{dealt.winner.capitalize()} ({high} to {low})"
    lines = [
        f"Player: {' '.join(map(str, dealt.player_cards)):<12} score {dealt.player_score}"
        f"   {dealt.player_reason}",
        f"Banker: {' '.join(map(str, dealt.banker_cards)):<12} score {dealt.banker_score}"
        f"   {dealt.banker_reason}",
        f"Winner: {winner}" + (" on a natural" if dealt.natural else ""),
        *_special_lines(paytable, specials),
    ]
    rows = []
    for bet_id in paytable.bet_ids:
        per_mode = {mode: nets[bet_id] for mode, nets in settled.items() if bet_id in nets}
        if same_in_every_mode(per_mode, paytable.modes):
            per_mode = {ALL_MODES: next(iter(per_mode.values()))}
        for mode, (net, multiplier) in per_mode.items():
            named = paytable.bet(bet_id, paytable.modes[0] if mode == ALL_MODES else mode)
            result = result_kind(net + paytable.fee)  # (the net before the fee)
            multiplied = "-" if multiplier is None else f"{float(multiplier):g}x"
            rows.append([named.display_name(), word(mode, "en"), result, multiplied, net])
    columns = [
        Column("Bet"),
        Column("Mode"),
        Column("Result"),
        Column("Multiplier"),
        Column("Per unit", "number", signed=True),  # 6 significant digits: +0.95, -1
    ]
    keep = [
        (name != "Mode" or len(paytable.modes) > 1)
        and (name != "Multiplier" or paytable.multipliers is not None)
        for name in ("Bet", "Mode", "Result", "Multiplier", "Per unit")
    ]
    bets_table = table(
        [c for c, kept in zip(columns, keep, strict=True) if kept],
        [[cell for cell, kept in zip(row, keep, strict=True) if kept] for row in rows],
        audience="people",
    )
    document = Document(None, (Paragraph("\n".join(lines)), bets_table), data)
    return write_document(document, args.format, **layout(args)), 0


def _special_lines(paytable: Paytable, specials: Specials) -> list[str]:
    """The round's special cards and the fee, for a paytable that has them."""
    lines = []
    if paytable.multipliers is not None:
        shown = ", ".join(
            f"{Card(rank, suit)} {float(value):g}x" for (rank, suit), value in specials.items()
        )
        lines.append(f"Special: {shown or 'none (give them with --special)'}")
    if paytable.fee:
        lines.append(f"Fee:     {float(paytable.fee):g} per unit staked, paid on every bet")
    return lines
