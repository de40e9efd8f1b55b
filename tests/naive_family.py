"""Plain references for the games of the baccarat family other than punto banco, written
apart from the engine: every ordered deal of physical cards, one at a time.

A card here is a string such as ``"QH"``; a shoe a list of them (repeats allowed: several
decks). Each deal is scored and compared by hand-written rules (not the engine's game
definition), and a bet is a plain Python function of the dealt hands returning its net
per unit staked, so an exact expected value is a sum over ``itertools`` deals.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
PICTURES = {"J", "Q", "K"}


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def deck(decks: int = 1) -> list[str]:
    return [r + s for r in RANK_ORDER for s in "SHDC"] * decks


def rank_number(card: str) -> int:
    """Dragon Tiger's order: Ace 1, 2-10, J 11, Q 12, K 13."""
    return RANK_ORDER.index(rank(card)) + 1


def points(cards: tuple[str, ...]) -> int:
    total = 0
    for card in cards:
        r = rank(card)
        if r == "A":
            total += 1
        elif r in ("10", "J", "Q", "K"):
            total += 0
        else:
            total += int(r)
    return total % 10


def dragon_tiger_winner(dragon: str, tiger: str) -> str:
    if rank_number(dragon) > rank_number(tiger):
        return "dragon"
    if rank_number(tiger) > rank_number(dragon):
        return "tiger"
    return "tie"


def three_card_winner(player: tuple[str, ...], dealer: tuple[str, ...]) -> str:
    """Three Card Baccarat: three pictures beat all; else more points; equal points, more
    pictures; else a tie (two hands of three pictures tie)."""

    def key(hand: tuple[str, ...]) -> tuple[int, int, int]:
        pictures = sum(rank(card) in PICTURES for card in hand)
        return (1 if pictures == 3 else 0, points(hand), pictures)

    p, d = key(player), key(dealer)
    if p[0] and d[0]:
        return "tie"
    if p > d:
        return "player"
    if d > p:
        return "dealer"
    return "tie"


def every_deal(shoe: list[str], n: int, replacement: bool = False):
    """Every ordered deal of ``n`` cards (each physical card once, or with replacement)."""
    if replacement:
        yield from itertools.product(shoe, repeat=n)
    else:
        for order in itertools.permutations(range(len(shoe)), n):
            yield tuple(shoe[i] for i in order)


def expected_net(
    shoe: list[str], n: int, net: Callable[[tuple[str, ...]], Fraction], replacement: bool = False
) -> Fraction:
    """The exact expected net per unit staked of a bet settled by ``net`` on each deal."""
    total, deals = Fraction(0), 0
    for dealt in every_deal(shoe, n, replacement):
        total += net(dealt)
        deals += 1
    return total / deals


def outcome_counts(
    shoe: list[str], n: int, key: Callable[[tuple[str, ...]], object], replacement: bool = False
) -> Counter:
    """How many ordered deals give each value of ``key``."""
    return Counter(key(dealt) for dealt in every_deal(shoe, n, replacement))


def card_name(index: int) -> str:
    """The card of an engine's card index (rank * 4 + suit, suits in the order S H D C)."""
    return RANK_ORDER[index // 4] + "SHDC"[index % 4]


def live_rounds(
    shoe: list[str], per_round: int, cut_card: int, one_more: bool = False
) -> list[tuple[str, ...]]:
    """The rounds a live table deals from ``shoe`` (in dealing order), a card at a time:
    the first card is shown and burned with as many more as its points (a ten or picture
    burns 10); rounds of ``per_round`` cards follow while the shoe holds one. The cut card
    lies ``cut_card`` cards from the end: the round it comes out in is finished and is the
    last, or with ``one_more`` one more round is dealt, unless it came out before that
    round's first card."""
    position = 1 + (points((shoe[0],)) or 10)
    cut = len(shoe) - cut_card
    rounds: list[tuple[str, ...]] = []
    after_cut = None  # rounds still to deal once the cut card is out
    while position + per_round <= len(shoe):
        out_before = after_cut is not None
        dealt = []
        for k in range(per_round):
            if position == cut and after_cut is None:
                after_cut = 1 if one_more and k > 0 else 0
            dealt.append(shoe[position])
            position += 1
        rounds.append(tuple(dealt))
        if out_before:
            after_cut -= 1
        if after_cut == 0:
            break
    return rounds


# -- Games with a decision (Lucky Draw Baccarat) ----------------------------------------


def value(card: str) -> int:
    return points((card,))


def drawn_round(dealt: tuple[str, ...], first: int, player_draws: bool, dealer_draws) -> tuple:
    """A round of two hands dealt alternately (``first`` cards each), the player taking
    the next card if ``player_draws``, then the dealer the next one if its total is in
    ``dealer_draws``: (player total, dealer total, player's cards)."""
    player = [dealt[2 * i] for i in range(first)]
    dealer = [dealt[2 * i + 1] for i in range(first)]
    rest = list(dealt[2 * first :])
    if player_draws:
        player.append(rest.pop(0))
    if points(tuple(dealer)) in dealer_draws:
        dealer.append(rest.pop(0))
    return points(tuple(player)), points(tuple(dealer)), len(player)


def lucky_draw_net(player: int, dealer: int, drew: bool, seven: Fraction) -> Fraction:
    """The Enter and Draw bets' net in base stakes: Enter 1:1; the Draw bet (only when
    drawing) 3:1 on a winning 9, 2:1 on 8, ``seven`` on 7, 1:1 below."""
    if player == dealer:
        return Fraction(0)
    if player < dealer:
        return Fraction(-2 if drew else -1)
    if not drew:
        return Fraction(1)
    return 1 + {9: Fraction(3), 8: Fraction(2), 7: seven}.get(player, Fraction(1))


def best_decision_ev(
    cards: list[str],
    n: int,
    seen: Callable[[tuple[str, ...]], tuple],
    nets: dict[str, Callable[[tuple[str, ...]], Fraction]],
    replacement: bool = False,
) -> Fraction:
    """The expected net under the best action of each information set: every ordered
    deal of ``n`` cards (each physical card once, or with replacement), grouped by what
    ``seen`` shows, each action's total net summed and the larger kept per set."""
    totals: dict[tuple, dict[str, Fraction]] = {}
    deals = 0
    for dealt in every_deal(cards, n, replacement):
        deals += 1
        by_action = totals.setdefault(seen(dealt), dict.fromkeys(nets, Fraction(0)))
        for action, net in nets.items():
            by_action[action] += net(dealt)
    return sum(max(values.values()) for values in totals.values()) / deals


def every_pure_strategy_best(
    cards: list[str],
    n: int,
    seen: Callable[[tuple[str, ...]], tuple],
    nets: dict[str, Callable[[tuple[str, ...]], Fraction]],
) -> Fraction:
    """The best expected net over every pure strategy (an action for each information
    set), each strategy's expected net summed over every deal: slow, literal."""
    deals = list(every_deal(cards, n))
    sets = sorted({seen(dealt) for dealt in deals})
    best = None
    for choice in itertools.product(list(nets), repeat=len(sets)):
        strategy = dict(zip(sets, choice, strict=True))
        ev = sum((nets[strategy[seen(d)]](d) for d in deals), Fraction(0)) / len(deals)
        best = ev if best is None or ev > best else best
    return best


def lucky_draw_round(cards: list[str], draw: bool, seven: Fraction) -> dict:
    """One round of Lucky Draw Baccarat dealt off ``cards`` (the shoe from the round's
    first card on) as a table deals it, by hand: Player, Dealer, Player, Dealer; the
    player's third card if they ``draw``; then the dealer's third card if their two cards
    total 0 to 4. Returns the hands, their totals, the winner, the cards the round took
    and the Enter bet's net in base stakes (a draw stakes two: the Draw bet)."""
    player = [cards[0], cards[2]]
    dealer = [cards[1], cards[3]]
    taken = 4
    if draw:
        player.append(cards[taken])
        taken += 1
    if points(tuple(dealer)) <= 4:
        dealer.append(cards[taken])
        taken += 1
    p, d = points(tuple(player)), points(tuple(dealer))
    winner = "player" if p > d else "dealer" if d > p else "tie"
    return {
        "player": player,
        "dealer": dealer,
        "scores": (p, d),
        "winner": winner,
        "taken": taken,
        "net": lucky_draw_net(p, d, draw, seven),
    }
