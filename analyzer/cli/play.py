"""``baccarat-odds play``: one round dealt from given cards, and every bet settled."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from analyzer.cli.options import (
    add_decisions_option,
    add_format_option,
    add_mode_option,
    add_paytable_option,
    layout,
    paytable_from_args,
)
from analyzer.errors import AnalyzerError
from analyzer.game.cards import SUITS, Card, parse_cards
from analyzer.game.fields import columns_of_round
from analyzer.game.games import Action, Game, decoded, drawn_fields
from analyzer.game.rules import deal_round
from analyzer.game.shoe import INFINITE, Shoe
from analyzer.paytables.model import Paytable, resolve_modes, result_kind
from analyzer.paytables.settle import Settlement
from analyzer.reports.document import Column, Document, Paragraph, table
from analyzer.reports.formats import ALL_MODES, fraction_text, same_in_every_mode
from analyzer.reports.i18n import word
from analyzer.reports.writers import write_document
from analyzer.words import counted

if TYPE_CHECKING:  # (the module is imported when --special is given)
    from analyzer.paytables.multipliers import Specials, SpecialSuits

DESCRIPTION = """\
Deal one round from the cards given, in deal order: who drew a third card and why (the
drawing rules), the winner, and what every bet of the paytable wins or loses per unit. A
paytable of another game (Dragon Tiger, Three Card Baccarat) takes exactly the cards its
game deals, in its dealing order; nobody draws. A game whose hands take a card after the
first deal (Lucky Draw Baccarat) takes the first deal, then the cards taken after it, in
the order of the hands (the player's, then the dealer's): the player's action is --action,
or by default the best action of each bet's exact strategy on a full shoe of the
paytable's decks (what report and strategy solve), and each action's exact expected net
in the round's information set is shown. A punto banco paytable whose [decision] shows
some of the first four cards (Peek Baccarat) takes the round's cards as punto banco does
and --shown, the cards this round showed (its chances need --unknowns); each bet of the
decision is raised by --action, or by default by its exact strategy in that information
set, and its net is per base stake, the raise and the fee (on the base stake) in it. A
game whose decision is shown cards at random takes --shown likewise (by their places in
the game's first deal, or names). An action that folds forfeits the bets of the decision
(their share of the stake lost, whatever the cards). A paytable with random multipliers
takes the round's special cards (or Lightning suits) with --special; without it none is
drawn and a multiplied bet is paid at 1x. Each net is per unit staked, any fee paid."""
#: The five Gold Cards of the golden-wealth example round.
_GOLD_CARDS = "7S=8,AH=2,2C=3,9D=2,KH=5"
#: Peek Baccarat at values of its unknowns (the chances of one, two, three cards shown).
_PEEK = "--paytable peek-baccarat --unknowns s1=1/4,s2=35/64,s3=1/8"
EXAMPLES = f"""\
examples:
  baccarat-odds play 2S 3H 2D KC 8H                 # Player draws the 8H, Banker stands
  baccarat-odds play KS 5H 6D AC --format json
  baccarat-odds play 9S 8H KD QC --paytable ez-baccarat   # naturals: nobody draws
  baccarat-odds play 7S 3H 2D KC --paytable golden-wealth-baccarat --special {_GOLD_CARDS}
  baccarat-odds play 5H 5S --paytable dragon-tiger   # Dragon 5H, Tiger 5S: a tie
  baccarat-odds play 5H 5S --paytable lightning-dragon-tiger --special S=5   # Tie: 6.5 x 5
  baccarat-odds play KS QH JD 2C 9D 9C --paytable lucky-draw-baccarat-1   # best: draw
  baccarat-odds play 6S 6H KD 2C 9D --paytable lucky-draw-baccarat-1 --action draw
  baccarat-odds play 4S 3H 2D 2C 8H {_PEEK} --shown 1,3   # the Player's cards shown
  baccarat-odds play 4S 3H 2D 2C 8H {_PEEK} --shown 2 --action double"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "cards",
        nargs="+",
        metavar="CARD",
        help="cards in deal order: P B P B, then third cards (e.g. 2S 3H 2D KC 8H); for "
        "another game, each of its cards in its dealing order",
    )
    add_paytable_option(parser)
    add_decisions_option(parser)
    parser.add_argument(
        "--special",
        metavar="CARD=X,...|SUIT=X,...",
        help="the round's special cards and their multipliers, for a paytable with "
        '[multipliers] (e.g. "7S=8,AH=2"); for one with Lightning suits (suits = K), '
        'the round\'s K suits and their multipliers (S, H, D or C, e.g. "S=5"); default: '
        "none drawn, a multiplied bet paid at 1x",
    )
    parser.add_argument(
        "--action",
        metavar="NAME",
        help="for a game with a player's decision (Lucky Draw Baccarat): the action taken, "
        "e.g. stand or draw; for a punto banco [decision] (Peek Baccarat): the action "
        "every bet of the decision takes, e.g. keep, double or triple (default: the best "
        "action of each bet's exact strategy on a full shoe of the paytable's decks)",
    )
    parser.add_argument(
        "--shown",
        metavar="CARDS",
        help="for a decision that shows some of the cards it sees at random (Peek "
        "Baccarat): the cards this round showed, by their places in the deal (punto banco: "
        "1 the Player's first card, 2 the Banker's first, 3 the Player's second, 4 the "
        'Banker\'s second; another game: its first deal in dealing order), e.g. "1,3", or by '
        "name (player_card1,banker_card2); none: no card shown (default: none given, which "
        "such a paytable refuses)",
    )
    add_mode_option(
        parser, None, "only this betting mode's rows in the JSON 'bets' (default: every mode)"
    )
    add_format_option(parser, ("text", "json"))


def run(args: argparse.Namespace) -> tuple[str, int]:
    from analyzer.reports.contract import dealt_shoe_record, envelope, played_options

    paytable = paytable_from_args(args)
    game = paytable.game
    if args.action is not None and paytable.decision is None:
        name = "punto banco" if game is None else game.name
        raise AnalyzerError(
            f"--action: {name} has no player's decision ({paytable.source}); it is for a "
            "game with one, such as Lucky Draw Baccarat, or a paytable with a [decision], "
            "such as Peek Baccarat"
        )
    reveal = _reveal_of(paytable, args.shown)
    modes = resolve_modes(paytable, args.mode)  # (one mode, or every mode)
    # A game's bets may look at ranks only: its cards may then be given without suits.
    cards = parse_cards(args.cards, suit_required=game is None)
    if game is not None and not game.by_values and len(cards) != game.cards:
        raise AnalyzerError(
            f"{game.name} deals {game.cards} cards a round ({_hands_dealt(game)}), in "
            f"this order: {_deal_order(game)}; got {len(cards)}"
        )
    try:  # the cards must all come out of one shoe of the paytable's decks
        if paytable.decks != INFINITE:  # (any cards come out of an infinite deck)
            Shoe.standard(paytable.decks).remove(cards)
    except AnalyzerError as exc:
        raise AnalyzerError(f"{exc} of {paytable.decks} deck(s) ({paytable.source})") from None
    specials: Specials = {}
    suits: SpecialSuits = {}
    if args.special is not None:
        from analyzer.paytables import multipliers

        model = paytable.multipliers
        if model is not None and model.by_suits:
            suits = multipliers.parse_special_suits(args.special, model)
            specials = multipliers.suit_specials(suits)
        else:
            specials = multipliers.parse_specials(args.special, model)
        _check_suits_known(paytable, cards)
    decision = None
    # The action each (bet, mode) of a decision was played with, in every mode.
    played: dict[tuple[str, str], Action] = {}
    if game is None:
        settled, round_record, lines = _punto_banco_round(paytable, cards, specials)
        if paytable.punto_banco_decision is not None:
            played, decision = _decided_round(
                paytable, cards, modes, settled, reveal, args.action, lines
            )
    elif game.by_values:
        settled, round_record, lines, decision = _drawn_round(
            paytable, cards, modes, args.action, reveal or 0
        )
        if decision is not None:  # (every bet of the game is played by the round's action)
            action = next(a for a in game.decision.actions if a.name == decision["action"])
            played = dict.fromkeys(
                ((bet.id, mode) for bet, mode in paytable.offered(paytable.modes)), action
            )
    else:
        settled, round_record, lines = _game_round(paytable, cards, specials)
    # (a bet the decision does not raise rides on the round at one stake)
    stakes = {
        key: action.stake if key[0] in paytable.decided else 1 for key, action in played.items()
    }
    rows = [
        {
            "bet": bet.id,
            "name": bet.display_name(),
            "mode": mode,
            "result": result_kind(settled[mode][bet.id][0] + bet.fee),
            "net": float(settled[mode][bet.id][0]),
            "net_exact": fraction_text(settled[mode][bet.id][0]),
            "multiplier": fraction_text(settled[mode][bet.id][1]),
            "stake": stakes.get((bet.id, mode), 1),
            "fee": fraction_text(bet.fee) if bet.fee else None,
        }
        for bet, mode in paytable.offered(modes)
    ]
    options = {
        "cards": [str(card) for card in cards],
        "modes": list(modes),
        "special_cards": {
            str(Card(rank, suit)): fraction_text(value)
            for (rank, suit), value in ({} if suits else specials).items()
        },
        "special_suits": {SUITS[suit]: fraction_text(value) for suit, value in suits.items()},
        **played_options(paytable, with_game=True),
        "action": args.action,
        "shown": None if args.shown is None else list(paytable.decision.reveals[reveal].sees),
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
            decision=decision,
        )
    lines += _special_lines(paytable, specials, suits)
    rows = []
    for bet_id in paytable.bet_ids:
        per_mode = {
            mode: (*nets[bet_id], played.get((bet_id, mode)), stakes.get((bet_id, mode), 1))
            for mode, nets in settled.items()
            if bet_id in nets
        }
        if same_in_every_mode(per_mode, paytable.modes):
            per_mode = {ALL_MODES: next(iter(per_mode.values()))}
        for mode, (net, multiplier, action, stake) in per_mode.items():
            named = paytable.bet(bet_id, paytable.modes[0] if mode == ALL_MODES else mode)
            result = result_kind(net + named.fee)  # (the net before the fee)
            multiplied = "-" if multiplier is None else f"{float(multiplier):g}x"
            fee = f"{float(named.fee):g}" if named.fee else "-"
            row = [named.display_name(), word(mode, "en"), result, multiplied]
            rows.append([*row, "-" if action is None else action.name, str(stake), fee, net])
    columns = [
        Column("Bet"),
        Column("Mode"),
        Column("Result"),
        Column("Multiplier"),
        Column("Action"),
        Column("Stake"),
        Column("Fee"),
        Column("Per unit", "number", signed=True),  # 6 significant digits: +0.95, -1
    ]
    # A punto banco [decision] raises some bets and not others: each row says its action
    # and stake; bets whose fees differ say each one's (one fee for all is a line above).
    by_bet = paytable.punto_banco_decision is not None
    fees = {bet.fee for bet, _ in paytable.offered(paytable.modes)}
    keep = [
        (name != "Mode" or len(paytable.modes) > 1)
        and (name != "Multiplier" or paytable.multipliers is not None)
        and (name not in ("Action", "Stake") or by_bet)
        and (name != "Fee" or len(fees) > 1)
        for name in ("Bet", "Mode", "Result", "Multiplier", "Action", "Stake", "Fee", "Per unit")
    ]
    bets_table = table(
        [c for c, kept in zip(columns, keep, strict=True) if kept],
        [[cell for cell, kept in zip(row, keep, strict=True) if kept] for row in rows],
        audience="people",
    )
    document = Document(None, (Paragraph("\n".join(lines)), bets_table), data)
    return write_document(document, args.format, **layout(args)), 0


#: What a round settles: per mode, each bet's net per unit staked and its multiplier.
Settled = dict[str, dict[str, tuple[Fraction, Fraction | None]]]


def _punto_banco_round(
    paytable: Paytable, cards: list[Card], specials: Specials
) -> tuple[Settled, dict[str, object], list[str]]:
    """The round of punto banco dealt from ``cards`` (who drew and why), every bet
    settled in every mode, the round as JSON gives it, and its lines for people."""
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
    round_record = {
        "hands": [
            _hand_record(
                "player", "Player", dealt.player_cards, dealt.player_score, dealt.player_reason
            ),
            _hand_record(
                "banker", "Banker", dealt.banker_cards, dealt.banker_score, dealt.banker_reason
            ),
        ],
        "winner": dealt.winner,
        "natural": dealt.natural,
    }
    high, low = sorted((dealt.player_score, dealt.banker_score), reverse=True)
    winner = "Tie" if dealt.winner == "tie" else f"{dealt.winner.capitalize()} ({high} to {low})"
    lines = [
        f"Player: {' '.join(map(str, dealt.player_cards)):<12} score {dealt.player_score}"
        f"   {dealt.player_reason}",
        f"Banker: {' '.join(map(str, dealt.banker_cards)):<12} score {dealt.banker_score}"
        f"   {dealt.banker_reason}",
        f"Winner: {winner}" + (" on a natural" if dealt.natural else ""),
    ]
    return settled, round_record, lines


def _reveal_of(paytable: Paytable, text: str | None) -> int | None:
    """The cards ``--shown`` names, as an index of the decision's
    :attr:`~analyzer.game.games.Decision.reveals`: required where a decision shows its
    cards at random (a punto banco ``[decision]``'s chances need the unknowns' values, to
    tell which numbers of cards a round may show); 0 for one whose cards seen are not
    random (``--shown`` not taken); None without a decision. Cards are named by their
    places in the first deal (punto banco: of the first four; another game: in its
    dealing order) or by name. Every problem is one line: a card not of the first deal,
    or not one the decision sees, a card given twice, a number of cards no round shows."""
    decision = paytable.decision
    if decision is None or not decision.shown:
        if text is not None:
            raise AnalyzerError(
                f"--shown: {paytable.source} shows no card at random; it is for a decision "
                "with 'shown', such as Peek Baccarat's"
            )
        return None if decision is None else 0
    from analyzer.analysis.exact import check_known
    from analyzer.cli.strategy import seen_label
    from analyzer.engine.deal_walk import FIRST_FOUR

    check_known(paytable)
    game = paytable.game
    if game is None:
        hands, first, places = paytable.decision_hands, FIRST_FOUR, _PLACES
    else:
        hands = game
        first = tuple(f"{game.hands[h].name}_card{k}" for h, k in game.positions)
        places = ", ".join(f"{i} {card}" for i, card in enumerate(first, 1))
    if text is None:
        which = "the first four cards" if game is None else "the cards its decision sees"
        raise AnalyzerError(
            f"--shown: {paytable.source} shows some of {which} at random: name those this "
            f"round showed, by their places in the deal ({places}), e.g. --shown 1,3"
        )
    items = [item.strip() for item in text.split(",")]
    chosen: list[str] = []
    if [item.lower() for item in items] != ["none"]:
        for item in items:
            if item.isdigit() and 1 <= int(item) <= len(first):
                card = first[int(item) - 1]
            elif item in first:
                card = item
            else:
                which = "one of the first four cards" if game is None else "a card of the deal"
                raise AnalyzerError(
                    f"--shown: {item[:20]!r} is not {which}: give their places in the deal "
                    f"({places}) or names (player_card1 ...), or none"
                )
            if card in chosen:
                raise AnalyzerError(f"--shown: {seen_label(hands, card)} is given twice")
            chosen.append(card)
    for card in chosen:
        if card not in decision.sees:
            seen = ", ".join(seen_label(hands, c) for c in decision.sees)
            raise AnalyzerError(
                f"--shown: the decision of {paytable.source} never shows "
                f"{seen_label(hands, card)} (it sees {seen})"
            )
    cards = tuple(card for card in decision.sees if card in chosen)
    for r, reveal in enumerate(decision.reveals):
        if reveal.sees == cards:
            return r
    counts = [str(k) for k, chance in decision.shown if chance]
    shows = " or ".join([", ".join(counts[:-1]), counts[-1]] if len(counts) > 1 else counts)
    given = f"{len(chosen)} card{'' if len(chosen) == 1 else 's'}"
    at = " at these unknowns" if game is None else ""
    raise AnalyzerError(
        f"--shown: {given} given, but a round of {paytable.source} shows {shows} (the "
        f"numbers of cards whose chance in 'shown' is not 0{at})"
    )


#: The first four cards' places in the deal, as --shown names them.
_PLACES = (
    "1 the Player's first card, 2 the Banker's first, 3 the Player's second, 4 the Banker's second"
)


def _decided_round(
    paytable: Paytable,
    cards: list[Card],
    modes: tuple[str, ...],
    settled: Settled,
    reveal: int,
    asked: str | None,
    lines: list[str],
) -> tuple[dict[tuple[str, str], Action], dict[str, object]]:
    """The decision of a punto banco paytable's ``[decision]`` (Peek Baccarat) in the
    round dealt from ``cards``: its information set, the cards of ``reveal`` (an index of
    the decision's reveals) and their point values; each bet of the decision in every
    mode raised by the action ``asked``, else by the action its exact strategy on a full
    shoe of the paytable's decks plays in that set (the best, or the one ``--decisions``
    gave), its net in ``settled`` made ``stake`` times the line's less the fee (paid on
    the base stake). Appends the lines people read to ``lines``; returns the action of
    each (bet, mode) of the decision and the decision as JSON gives it (the strategies of
    ``modes`` only)."""
    from analyzer.cli.strategy import seen_label
    from analyzer.engine.deal_walk import FIRST_FOUR
    from analyzer.runs.decided import decided_tables, play_decided

    decision = paytable.punto_banco_decision
    hands = paytable.decision_hands
    names = [a.name for a in decision.actions]
    action = None
    if asked is not None:
        if asked not in names:
            raise AnalyzerError(
                f"--action: the [decision] of {paytable.source} has no action {asked[:40]!r} "
                f"(actions: {', '.join(names)})"
            )
        action = decision.actions[names.index(asked)]
    shown = decision.reveals[reveal].sees
    values = {card: cards[i].value for i, card in enumerate(FIRST_FOUR)}
    tables = decided_tables(paytable, Shoe.standard(paytable.decks))
    plays = play_decided(paytable, cards, reveal, tables, action)
    choices = {key: play.choice for key, play in plays.items()}
    played = {key: play.action for key, play in plays.items()}
    for (bet_id, mode), play in plays.items():
        settled[mode][bet_id] = (play.net, None)
    hidden = [card for card in decision.sees if card not in shown]
    seen_text = ", ".join(f"{seen_label(hands, card)} {values[card]}" for card in shown)
    lines.append(f"Shown:  {seen_text or 'none'} (point values: the information set)")
    if hidden:
        lines.append(f"Hidden: {', '.join(seen_label(hands, card) for card in hidden)}")
    for (bet_id, mode), choice in choices.items():
        named = paytable.bet(bet_id, mode)
        evs = ", ".join(f"{name} {float(v):+.6f}" for name, v in choice.values.items())
        in_mode = f" ({word(mode, 'en')})" if len(paytable.modes) > 1 else ""
        lines.append(f"  {named.display_name()}{in_mode}: EV {evs}; best {choice.best}")
    if action is not None:
        how = (
            f"{action.name}{_staked_text(action)}, every bet of the decision (given with --action)"
        )
    elif paytable.played is not None:
        how = f"each bet's as {paytable.played.source} plays these cards"
    else:
        how = f"each bet's best in its exact strategy on a full shoe of {paytable.decks} decks"
    lines.append(f"Action: {how}")
    lines.append("EV:     the exact expected net per base stake in this set, before the fee")
    by_fee: dict[Fraction, list[str]] = {}
    for bet, _ in paytable.offered(paytable.modes):
        named = by_fee.setdefault(bet.fee, [])
        if bet.display_name() not in named:
            named.append(bet.display_name())
    for fee, named in by_fee.items():
        if not fee or fee == paytable.fee:  # (a fee on every bet is said as ever)
            continue
        on = " and ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)
        lines.append(f"Fee:    {float(fee):g} per base stake on {on} (a raise pays none)")
    in_modes = [(key, choice) for key, choice in choices.items() if key[1] in modes]
    taken_here = {played[key] for key, _ in in_modes}
    one = next(iter(taken_here)) if len(taken_here) == 1 else None
    record = {
        "seen": [
            {"card": card, "label": seen_label(hands, card), "value": values[card]}
            for card in shown
        ],
        "hidden": hidden,
        "action": None if one is None else one.name,
        "stake": None if one is None else one.stake,
        "chosen_by": "option" if asked is not None else "strategy",
        "strategies": [
            _strategy_record(bet_id, mode, choice, played[(bet_id, mode)])
            for (bet_id, mode), choice in in_modes
        ],
    }
    return played, record


def _game_round(
    paytable: Paytable, cards: list[Card], specials: Specials
) -> tuple[Settled, dict[str, object], list[str]]:
    """The round of a game without drawing (:mod:`analyzer.game.games`) dealt from
    ``cards`` in the game's dealing order: the fields of its one row (the game's own
    :meth:`~analyzer.game.games.Game.columns`), every bet settled on them in every mode
    (the first rule whose condition holds; a multiplied bet by the ``specials`` among the
    cards it counts, :meth:`~analyzer.game.games.Game.counted_mask`), the round as JSON
    gives it (its hands in the game's order; no natural, no reason to draw), and its
    lines for people (the hands by their labels)."""
    game = paytable.game
    suitless = _require_suits(cards, paytable)
    ranks = np.array([[card.rank for card in cards]], dtype=np.int64)
    suits = None if suitless else np.array([[card.suit for card in cards]], dtype=np.int64)
    columns = {
        name: decoded(codes, texts) for name, (codes, texts) in game.columns(ranks, suits).items()
    }
    identities = [(card.rank, card.suit) for card in cards]

    def cards_counted(kind: str, winner: str) -> list[tuple[int, int]]:
        code = np.array([game.winners.index(winner)])
        return [identities[i] for i in np.flatnonzero(game.counted_mask(kind, code)[0])]

    settled = {
        mode: {
            bet.id: Settlement(bet).dealt_result(columns, [], [], specials, cards_counted)
            for bet, mode in paytable.offered((mode,))
        }
        for mode in paytable.modes
    }
    hands = [[cards[i] for i in positions] for positions in game.hand_positions]
    scores = [int(columns[f"{hand.name}_score"][0]) for hand in game.hands]
    pictures = [int(columns[f"{hand.name}_pictures"][0]) for hand in game.hands]
    winner = str(columns["winner"][0])
    by_pictures = game.score == "points and pictures"
    round_record = {
        "hands": [
            _hand_record(
                hand.name, hand.label("en"), held, score, pictures=shown if by_pictures else None
            )
            for hand, held, score, shown in zip(game.hands, hands, scores, pictures, strict=True)
        ],
        "winner": winner,
        "natural": None,
    }
    labels = [f"{hand.label('en')}:" for hand in game.hands]
    width = max(map(len, labels))
    lines = []
    for label, held, score, shown in zip(labels, hands, scores, pictures, strict=True):
        line = f"{label:<{width}} {' '.join(map(str, held)):<12} score {score}"
        if by_pictures:
            line += f", {counted(shown, 'picture card')}"
        lines.append(line)
    if winner == game.tie:
        lines.append(f"Winner: {game.tie.capitalize()}")
    else:
        w = game.winners.index(winner)
        by = f"{scores[w]} to {scores[1 - w]}" if scores[w] > scores[1 - w] else "on picture cards"
        lines.append(f"Winner: {game.hands[w].label('en')} ({by})")
    return settled, round_record, lines


def _drawn_round(
    paytable: Paytable,
    cards: list[Card],
    modes: tuple[str, ...],
    asked: str | None,
    reveal: int = 0,
) -> tuple[Settled, dict[str, object], list[str], dict[str, object] | None]:
    """The round of a game whose hands take a card after the first deal
    (:mod:`analyzer.game.games`: Lucky Draw Baccarat) dealt from ``cards``: the first
    deal in the game's dealing order, then the cards taken after it in the order of the
    hands, as the exact walk takes them (:func:`~analyzer.engine.deal_walk.drawn_tables`).
    The action is ``asked``, else the best of each offered bet's exact strategy on a full
    shoe of the paytable's decks (its information set read by
    :func:`~analyzer.engine.deal_walk.information_codes`; bets whose strategies differ
    there need ``--action``). Every bet is settled by its first rule that holds, a raised
    stake netting ``stake`` times the line. Returns what :func:`_game_round` does, and the
    decision as JSON gives it (None without one)."""
    from analyzer.engine.deal_walk import information_codes
    from analyzer.paytables.settle import settling_rule

    game = paytable.game
    if len(cards) < game.cards:
        raise AnalyzerError(
            f"{game.name} deals {game.cards} cards first ({_hands_dealt(game)}), in this "
            f"order: {_deal_order(game)}, then {_extras_text(game)}; got {len(cards)}"
        )
    suitless = _require_suits(cards, paytable)
    values = [card.value for card in cards]
    first = [sum(values[i] for i in positions) % 10 for positions in game.hand_positions]
    offered = list(paytable.offered(modes))
    decision = game.decision
    action = None
    choices = {}
    if decision is not None:
        if asked is None:  # each bet's strategy is solved: its walk within budget
            from analyzer.engine.deal_walk import check_deal_walk

            for bet, _ in offered:
                check_deal_walk(game, Shoe.standard(paytable.decks), bet.fields, bet=bet.id)
        code = int(information_codes(game, np.array([values[: game.cards]]))[0])
        shown = decision.reveals[reveal].sees
        code = _shown_code(code, decision.sees, shown)
        # The strategies of the bets the decision raises (the others ride on the round).
        raised = [(bet, mode) for bet, mode in offered if bet.id in paytable.decided]
        choices = _strategy_choices(paytable, raised, code, reveal)
        names = [a.name for a in decision.actions]
        if asked is not None:
            if asked not in names:
                raise AnalyzerError(
                    f"--action: {game.name} has no action {asked[:40]!r} (actions: "
                    f"{', '.join(names)})"
                )
            action = decision.actions[names.index(asked)]
        else:
            best = {key: choice.played for key, choice in choices.items()}
            if not best:  # (no bet of these modes is played by a strategy)
                raise AnalyzerError(
                    f"no bet of {paytable.source} has a strategy for {game.name}'s decision: "
                    "give the action taken with --action"
                )
            if len(set(best.values())) > 1:
                shown = ", ".join(f"{bet} ({mode}): {name}" for (bet, mode), name in best.items())
                raise AnalyzerError(
                    f"the bets' exact strategies play these cards differently ({shown}): "
                    "give the action taken with --action"
                )
            action = decision.actions[names.index(next(iter(best.values())))]
    took = [
        int(
            bool(hand.extra)
            and (first[h] in hand.draws or (action is not None and action.draws == hand.name))
        )
        for h, hand in enumerate(game.hands)
    ]
    needed = game.cards + sum(took)
    if len(cards) != needed:
        taken = [
            f"the {hand.label('en')}'s card {hand.cards + 1} ("
            + (f"its {first[h]} draws" if hand.draws else f"the action {action.name}")
            + ")"
            for h, hand in enumerate(game.hands)
            if took[h]
        ]
        after = f", then {' and '.join(taken)}" if taken else ", and no card after them"
        under = "" if action is None else f" under the action {action.name!r}"
        raise AnalyzerError(
            f"{game.name} deals {needed} cards in this round{under}: {game.cards} first "
            f"({_deal_order(game)}){after}; got {len(cards)}"
        )
    held = [[cards[i] for i in positions] for positions in game.hand_positions]
    totals = list(first)
    by_slot: list[Card | None] = list(cards[: game.cards])  # (Game.card_slots)
    at = game.cards
    for h, hand in enumerate(game.hands):
        if took[h]:
            held[h].append(cards[at])
            totals[h] = (totals[h] + values[at]) % 10
            by_slot.append(cards[at])
            at += 1
        elif hand.extra:
            by_slot.append(None)
    winner = 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else 2
    index = 0 if action is None else decision.actions.index(action)
    row = np.array([[1, 0, needed, index, winner, *totals, *took]], dtype=np.int64)
    wanted = frozenset().union(*(bet.fields for bet in paytable.bets))
    ranks = np.array([[-1 if card is None else card.rank for card in by_slot]])
    suits = None
    if not suitless:
        suits = np.array([[-1 if card is None else card.suit for card in by_slot]])
    columns = drawn_fields(
        game, row[:, 4], row[:, 5:7], row[:, 7:9], row[:, 3], ranks, suits, wanted
    )
    stake = 1 if action is None else action.stake
    settled: Settled = {}
    for mode in paytable.modes:
        settled[mode] = {}
        for bet, _ in paytable.offered((mode,)):
            settlement = Settlement(bet)
            rule = int(settling_rule(bet, columns, 1)[0])
            times = stake if bet.id in paytable.decided else 1  # (a bet riding on the round)
            net = times * settlement.round_net(rule, Fraction(1)) - settlement.fee
            if action is not None and action.folds and bet.id in paytable.decided:
                net = -action.forfeit - settlement.fee  # (forfeit: no rule settles it)
            settled[mode][bet.id] = (net, None)
    reasons = [
        _why(game, h, first, action) if hand.extra else None for h, hand in enumerate(game.hands)
    ]
    round_record = {
        "hands": [
            _hand_record(hand.name, hand.label("en"), cards_of, score, reason)
            for hand, cards_of, score, reason in zip(game.hands, held, totals, reasons, strict=True)
        ],
        "winner": game.winners[winner],
        "natural": None,
    }
    labels = [f"{hand.label('en')}:" for hand in game.hands]
    width = max(map(len, [*labels, "Winner:"]))
    lines = []
    for label, cards_of, score, reason in zip(labels, held, totals, reasons, strict=True):
        line = f"{label:<{width}} {' '.join(map(str, cards_of)):<12} score {score}"
        lines.append(line + (f"   {reason}" if reason else ""))
    if winner == 2:
        lines.append(f"{'Winner:':<{width}} {game.tie.capitalize()}")
    else:
        high, low = totals[winner], totals[1 - winner]
        lines.append(f"{'Winner:':<{width}} {game.hands[winner].label('en')} ({high} to {low})")
    if decision is None:
        return settled, round_record, lines, None
    from analyzer.cli.strategy import seen_label

    seen_values = _information_seen(game, values)
    seen_of = dict(zip(decision.sees, seen_values, strict=True))
    shown = decision.reveals[reveal].sees
    seen_text = ", ".join(f"{seen_label(game, card)} {seen_of[card]}" for card in shown)
    lines.append(f"Seen: {seen_text or 'none'} (point values: the information set)")
    hidden = [card for card in decision.sees if card not in shown]
    if hidden:
        lines.append(f"Hidden: {', '.join(seen_label(game, card) for card in hidden)}")
    for (bet_id, mode), choice in choices.items():
        named = paytable.bet(bet_id, mode)
        evs = ", ".join(f"{name} {float(v):+.6f}" for name, v in choice.values.items())
        in_mode = f" ({word(mode, 'en')})" if len(paytable.modes) > 1 else ""
        lines.append(f"  {named.display_name()}{in_mode}: EV {evs}; best {choice.best}")
    why = (
        "given with --action"
        if asked is not None
        else f"as {paytable.played.source} plays these cards"
        if paytable.played is not None
        else f"the best of the exact strategy on a full shoe of {paytable.decks} decks"
    )
    lines.append(f"Action: {action.name}{_staked_text(action)} ({why})")
    decision_record = {
        "seen": [
            {"card": card, "label": seen_label(game, card), "value": seen_of[card]}
            for card in shown
        ],
        "hidden": hidden,
        "action": action.name,
        "stake": action.stake,
        "chosen_by": "option" if asked is not None else "strategy",
        "strategies": [
            _strategy_record(bet_id, mode, choice, action)
            for (bet_id, mode), choice in choices.items()
        ],
    }
    return settled, round_record, lines, decision_record


def _staked_text(action: Action) -> str:
    """How an action stakes, as play says it after its name ("" at one base stake)."""
    if action.folds:
        return f", folds: {action.pays} of the base stake, the round not played on"
    return f", {action.stake} base stakes" if action.stake != 1 else ""


def _information_seen(game: Game, values: Sequence[int]) -> tuple[int, ...]:
    """The point values of the cards a decision sees, in the order it names them, of a
    round whose cards have point ``values`` (in dealing order): the round's information
    set, as the strategy table lists it (the digits of its code,
    :func:`~analyzer.engine.deal_walk.information_codes`)."""
    from analyzer.engine.deal_walk import information_codes, information_values

    code = information_codes(game, np.array([list(values[: game.cards])]))
    return information_values(len(game.decision.sees), code)[0]


def _shown_code(code: int, sees: Sequence[str], shown: Sequence[str]) -> int:
    """The code of the information set of the cards ``shown`` (of ``sees``, in its order)
    from ``code``, that of every card ``sees`` names: those cards' digits kept."""
    digits = str(code).zfill(len(sees))
    return int("".join(digits[sees.index(card)] for card in shown) or "0")


def _strategy_choices(paytable: Paytable, offered: list, code: int, reveal: int = 0) -> dict:
    """Per offered (bet, mode), the :class:`~analyzer.analysis.decisions.Choice` of the
    information set ``code`` (of reveal number ``reveal``) in its exact strategy on a full
    shoe of the paytable's decks (what report and strategy solve by default)."""
    from analyzer.analysis.exact import analyze

    analysis = analyze(paytable=paytable, shoe=Shoe.standard(paytable.decks))
    return {
        (bet.id, mode): analysis.choices[(bet.id, mode)].choice(code, reveal)
        for bet, mode in offered
        if (bet.id, mode) in analysis.choices
    }


def _why(game: Game, h: int, first: list[int], action) -> str:
    """Why hand ``h`` took its card after the first deal, or stood: its own rule on its
    first total, or the action."""
    hand = game.hands[h]
    if hand.draws:
        rule = _values_text(hand.draws)
        verb = "drew" if first[h] in hand.draws else "stood"
        return f"{verb} on {first[h]} (draws on {rule})"
    if action is not None and action.draws == hand.name:
        return f"drew: the action {action.name}"
    return "stood" + ("" if action is None else f": the action {action.name}")


def _values_text(values: Sequence[int]) -> str:
    """Totals as runs: ``(0, 1, 2, 3, 4)`` as ``0-4``, ``(0, 1, 6)`` as ``0-1, 6``."""
    runs: list[list[int]] = []
    for value in sorted(values):
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def _extras_text(game: Game) -> str:
    """The cards a round may take after the first deal, in the order they are dealt."""
    parts = []
    for hand in game.hands:
        if hand.draws:
            parts.append(
                f"the {hand.label('en')}'s card where its total is {_values_text(hand.draws)}"
            )
        elif hand.extra:
            parts.append(f"the {hand.label('en')}'s card where the action draws it")
    return " and ".join(parts) if parts else "no card"


def _hand_record(
    name: str,
    label: str,
    cards: Sequence[Card],
    score: int,
    reason: str | None = None,
    *,
    pictures: int | None = None,
) -> dict[str, object]:
    """A hand as the round's JSON gives it (the play contract, version 3): its ``name``,
    ``label`` (in English), ``cards`` (as dealt), ``score``, ``reason`` (why it drew or
    stood: punto banco's; None for a game without drawing) and ``pictures`` (its picture
    cards, for a game scored on them; else None)."""
    return {
        "name": name,
        "label": label,
        "cards": [str(card) for card in cards],
        "score": int(score),
        "reason": reason,
        "pictures": None if pictures is None else int(pictures),
    }


def _hands_dealt(game: Game) -> str:
    """How many cards each hand of ``game`` is dealt, in words."""
    return ", ".join(f"{hand.cards} to the {hand.label('en')}" for hand in game.hands)


def _deal_order(game: Game) -> str:
    """The order ``game`` deals its cards in, as hands' labels (Player Player Dealer...)."""
    return " ".join(game.hands[h].label("en") for h, _ in game.positions)


#: The suits by name, in the order of :data:`~analyzer.game.cards.SUITS`.
_SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


def _check_suits_known(paytable: Paytable, cards: list[Card]) -> None:
    """Refuse a card given without its suit in a round with special cards or suits and a
    multiplied bet: whether the card is special depends on its suit."""
    suitless = [str(card) for card in cards if card.suit is None]
    multiplied = [bet.id for bet in paytable.bets if bet.multiplied]
    if suitless and multiplied:
        raise AnalyzerError(
            f"card {suitless[0]} has no suit, and bet {multiplied[0]!r} of {paytable.source} "
            "pays by the special cards given with --special: give every card's suit (e.g. 5H)"
        )


def _special_lines(paytable: Paytable, specials: Specials, suits: SpecialSuits) -> list[str]:
    """The round's special cards (or Lightning suits) and the fee, for a paytable that
    has them."""
    lines = []
    model = paytable.multipliers
    if model is not None and model.by_suits:
        shown = ", ".join(f"{_SUIT_NAMES[suit]} {float(value):g}x" for suit, value in suits.items())
        none = (
            "none given, so a multiplied bet is paid at 1x (give the round's with --special, "
            "e.g. S=5)"
        )
        lines.append(f"Lightning: {shown or none}")
    elif model is not None:
        shown = ", ".join(
            f"{Card(rank, suit)} {float(value):g}x" for (rank, suit), value in specials.items()
        )
        lines.append(f"Special: {shown or 'none (give them with --special)'}")
    if paytable.fee:
        lines.append(f"Fee:     {float(paytable.fee):g} per unit staked, paid on every bet")
    return lines


def _strategy_record(bet_id: str, mode: str, choice, action: Action) -> dict:
    """A bet's strategy in the round's information set, as play's JSON gives it: each
    action's exact EV there, the best, and the action it was played by."""
    return {
        "bet": bet_id,
        "mode": mode,
        "ev": {name: fraction_text(v) for name, v in choice.values.items()},
        "ev_float": {name: float(v) for name, v in choice.values.items()},
        "best": choice.best,
        "action": action.name,
        "stake": action.stake,
    }


def _require_suits(cards: list[Card], paytable: Paytable) -> list[str]:
    """The cards given without a suit; refused in one line where a bet of the game's
    paytable looks at suits."""
    suitless = [str(card) for card in cards if card.suit is None]
    on_suits = [bet.id for bet in paytable.bets if paytable.game.needs_suits(bet.fields)]
    if suitless and on_suits:
        raise AnalyzerError(
            f"card {suitless[0]} has no suit, and bet {on_suits[0]!r} of {paytable.source} "
            "looks at suits: give every card's suit (e.g. 5H)"
        )
    return suitless
