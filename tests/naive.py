"""Brute-force references that the kernels are tested against.

Plain Python, written from the rules text rather than from the package's tables: the
third-card rule is an if/else ladder, cards are real (rank, suit) objects, and rounds are
counted by dealing them, not by falling products. Nothing here imports ``analyzer``.

Outcome keys are ``(player_pair, banker_pair, player_score, banker_score, player_third,
banker_third)`` with pair 0 = none, 1 = same rank other suit, 2 = same rank and suit, and
third = point value of the third card or None.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import permutations, product


def points(rank: int) -> int:
    """Rank 1..13 (Ace..King): Ace 1, 2-9 face value, ten and faces 0."""
    return rank if rank < 10 else 0


def player_draws(score: int) -> bool:
    return score <= 5


def banker_draws(score: int, player_third: int | None) -> bool:
    if player_third is None:
        return score <= 5
    if score <= 2:
        return True
    if score == 3:
        return player_third != 8
    if score == 4:
        return 2 <= player_third <= 7
    if score == 5:
        return 4 <= player_third <= 7
    if score == 6:
        return player_third in (6, 7)
    return False


class RuleTable:
    """Drawing rules read from a ``[rules]`` mapping as a person reads the table: each key's
    text split into the totals it lists, a decision cell played with the probability of
    drawing in ``choices`` (``"player:5"``, ``"banker:3/9"``, ``"banker:6/stood"``).
    Keys left out take the standard game's if/else ladder above."""

    def __init__(self, table: dict, choices: dict | None = None) -> None:
        self.table, self.choices = table, dict(choices or {})
        self.naturals = self._listed("naturals") if "naturals" in table else {8, 9}

    def _listed(self, key: str, text: str | None = None) -> set[int]:
        text = self.table.get(key, "") if text is None else text
        out: set[int] = set()
        for part in text.split(","):
            if "-" in part:
                low, high = part.split("-")
                out |= set(range(int(low), int(high) + 1))
            elif part.strip():
                out.add(int(part))
        return out

    def player_draws(self, total: int) -> Fraction:
        """The probability that the Player draws on a two-card ``total`` (no natural)."""
        if total in self._listed("player_chooses"):
            return Fraction(self.choices[f"player:{total}"])
        if "player_draws" in self.table:
            return Fraction(total in self._listed("player_draws"))
        return Fraction(player_draws(total))

    def banker_draws(self, total: int, player_third: int | None) -> Fraction:
        """The probability that the Banker draws on ``total`` after the Player's third card
        (None: the Player stood)."""
        if player_third is None:
            if total in self._listed("banker_chooses_when_player_stands"):
                return Fraction(self.choices[f"banker:{total}/stood"])
            if "banker_draws_when_player_stands" in self.table:
                return Fraction(total in self._listed("banker_draws_when_player_stands"))
            return Fraction(banker_draws(total, None))
        chooses = self.table.get("banker_chooses", {}).get(str(total), "")
        if player_third in self._listed("", chooses):
            return Fraction(self.choices[f"banker:{total}/{player_third}"])
        if "banker_draws" in self.table:
            draws = self.table["banker_draws"].get(str(total), "")
            return Fraction(player_third in self._listed("", draws))
        return Fraction(banker_draws(total, player_third))


def play(first_four_points, more_points, rules: RuleTable | None = None):
    """Play a round; returns (player_score, banker_score, player_third, banker_third, used).
    Under ``rules`` every decision must be pure (drawn or stood)."""
    p1, b1, p2, b2 = first_four_points
    player, banker = (p1 + p2) % 10, (b1 + b2) % 10
    naturals = {8, 9} if rules is None else rules.naturals
    if player in naturals or banker in naturals:
        return player, banker, None, None, 4
    rest = iter(more_points)
    player_third = banker_third = None
    if rules is None:
        player_drawn = player_draws(player)
    else:
        player_drawn = {0: False, 1: True}[rules.player_draws(player)]
    if player_drawn:
        player_third = next(rest)
        player = (player + player_third) % 10
    if rules is None:
        banker_drawn = banker_draws(banker, player_third)
    else:
        banker_drawn = {0: False, 1: True}[rules.banker_draws(banker, player_third)]
    if banker_drawn:
        banker_third = next(rest)
        banker = (banker + banker_third) % 10
    return (
        player,
        banker,
        player_third,
        banker_third,
        4 + (player_third is not None) + (banker_third is not None),
    )


def pair_state(card1, card2) -> int:
    if card1 == card2:
        return 2
    return 1 if card1[0] == card2[0] else 0


def physical_reference(cards: list[tuple[int, int]], rules: RuleTable | None = None) -> Counter:
    """Deal every ordered six-card sequence of a tiny shoe of physical (rank, suit) cards."""
    out: Counter = Counter()
    for seq in permutations(range(len(cards)), 6):
        dealt = [cards[i] for i in seq]
        pts = [points(rank) for rank, _ in dealt]
        player, banker, pt, bt, _ = play(pts[:4], pts[4:], rules)
        key = (
            pair_state(dealt[0], dealt[2]),
            pair_state(dealt[1], dealt[3]),
            player,
            banker,
            pt,
            bt,
        )
        out[key] += 1
    return out


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def _draw_phase(points_left: list[int], first_four_points) -> Counter:
    """Ways to deal cards 5 and 6 after the first four, keyed by the round's result.

    Cards are dealt one at a time until the round is decided; the rest of the six are any
    cards left, so every entry counts ordered six-card sequences.
    """
    out: Counter = Counter()

    def deal(more: list[int], ways: int, left: int) -> None:
        try:
            player, banker, pt, bt, used = play(first_four_points, more)
        except StopIteration:  # the round needs another card
            for p in range(10):
                if points_left[p]:
                    w = points_left[p]
                    points_left[p] -= 1
                    deal([*more, p], ways * w, left - 1)
                    points_left[p] += 1
            return
        out[(player, banker, pt, bt)] += ways * _falling(left, 6 - used)

    deal([], 1, sum(points_left))
    return out


def reference_counts(suit_counts: list[list[int]]) -> Counter:
    """Exact outcome counts from counts per (rank 0..12, suit 0..3).

    The first four cards are dealt rank by rank; a card whose rank another of the four
    shares is dealt with its suit too, so that suited pairs are told apart. The rest of
    the round is dealt by point value.
    """
    rank_counts = [sum(row) for row in suit_counts]
    point_counts = [0] * 10
    for r, n in enumerate(rank_counts):
        point_counts[points(r + 1)] += n
    first_four: Counter = Counter()  # (points tuple, player_pair, banker_pair) -> ways

    def settle(ranks: list[int]) -> None:
        pts = tuple(points(r + 1) for r in ranks)
        shared = [ranks.count(r) > 1 for r in ranks]
        for suits in product(*[range(4) if s else [None] for s in shared]):
            cards = list(zip(ranks, suits, strict=True))
            seen: dict = {}
            ways = 1
            for card in cards:
                n = rank_counts[card[0]] if card[1] is None else suit_counts[card[0]][card[1]]
                before = seen.get(card, 0)
                ways *= n - before
                seen[card] = before + 1
            if ways > 0:
                key = (pts, pair_state(cards[0], cards[2]), pair_state(cards[1], cards[3]))
                first_four[key] += ways

    for ranks in product(range(13), repeat=4):
        settle(list(ranks))
    phases: dict = {}
    out: Counter = Counter()
    for (pts, pp, bp), ways in first_four.items():
        if pts not in phases:
            points_left = list(point_counts)
            for p in pts:
                points_left[p] -= 1
            phases[pts] = _draw_phase(points_left, pts)
        for (player, banker, pt, bt), w in phases[pts].items():
            out[(pp, bp, player, banker, pt, bt)] += ways * w
    return out


# -- Settling the bets of GAME.md, written out as plain if/else ----------------------------

_BONUS = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}


def settle(bet: str, mode: str, key) -> float | int:
    """Net result per unit of ``bet`` on an outcome key (numbers exact as ints/fractions)."""
    from fractions import Fraction

    pp, bp, player, banker, pt, bt = key
    player_cards, banker_cards = 2 + (pt is not None), 2 + (bt is not None)
    natural = pt is None and bt is None and max(player, banker) >= 8
    p_wins, b_wins, tie = player > banker, banker > player, player == banker
    lose = -1

    def bonus(mine: int, theirs: int, i_win: bool) -> int:
        if natural:
            return 1 if i_win else 0 if tie else lose
        return _BONUS.get(mine - theirs, lose)

    def lucky(wins: bool, score: int, want: int, cards: int, pays: dict) -> int:
        return pays.get(cards, lose) if wins and score == want else lose

    if bet == "player":
        return 1 if p_wins else 0 if tie else lose
    if bet == "banker":
        if b_wins:
            if mode == "commission":
                return Fraction(95, 100)
            return Fraction(1, 2) if banker == 6 else 1
        return 0 if tie else lose
    if bet == "tie":
        return 8 if tie else lose
    if bet == "player_pair":
        return 11 if pp else lose
    if bet == "banker_pair":
        return 11 if bp else lose
    if bet == "any_pair":
        return 5 if pp or bp else lose
    if bet == "perfect_pair":
        return 25 if pp == 2 or bp == 2 else lose
    if bet == "player_natural":
        return Fraction(7, 2) if player_cards == 2 and player >= 8 else lose
    if bet == "banker_natural":
        return Fraction(7, 2) if banker_cards == 2 and banker >= 8 else lose
    if bet == "player_bonus":
        return bonus(player, banker, p_wins)
    if bet == "banker_bonus":
        return bonus(banker, player, b_wins)
    if bet == "lucky_six":
        return lucky(b_wins, banker, 6, banker_cards, {2: 12, 3: 20})
    if bet == "lucky_six_2card":
        return lucky(b_wins, banker, 6, banker_cards, {2: 22})
    if bet == "lucky_six_3card":
        return lucky(b_wins, banker, 6, banker_cards, {3: 50})
    if bet == "lucky_seven":
        return lucky(p_wins, player, 7, player_cards, {2: 6, 3: 15})
    if bet == "lucky_seven_2card":
        return lucky(p_wins, player, 7, player_cards, {2: 15})
    if bet == "lucky_seven_3card":
        return lucky(p_wins, player, 7, player_cards, {3: 30})
    if bet == "super_lucky_seven":
        if p_wins and player == 7 and banker == 6:
            return {4: 30, 5: 40, 6: 100}[player_cards + banker_cards]
        return lose
    raise KeyError(bet)


def expected_value(counts: Counter, bet: str, mode: str):
    from fractions import Fraction

    total = sum(counts.values())
    return sum(Fraction(w) * settle(bet, mode, key) for key, w in counts.items()) / total


def reference_value_counts(point_counts: list[int]) -> Counter:
    """Outcome counts keyed (player_score, banker_score, player_third, banker_third)."""
    out: Counter = Counter()
    left = list(point_counts)

    def deal(pts: list[int], ways: int) -> None:
        if len(pts) == 4:
            for key, w in _draw_phase(left, tuple(pts)).items():
                out[key] += ways * w
            return
        for p in range(10):
            if left[p]:
                w = left[p]
                left[p] -= 1
                deal([*pts, p], ways * w)
                left[p] += 1

    deal([], 1)
    return out


# -- Bet conditions, evaluated from a tree rather than from text ---------------------------
#
# A condition tree is nested tuples, built by the tests and rendered by them to text:
#   ("field", name)  ("int", n)  ("str", s)  ("bool", b)
#   ("neg", e)  ("add" | "sub" | "mul", a, b)  ("not", e)  ("and" | "or", (e, e, ...))
#   ("compare", (e0, e1, ...), (op1, ...))   a chain: e0 op1 e1 op2 e2 ...
#   ("in", e, (value, ...), negate)          the values are plain ints or strings
# Integers are Python's, so nothing here can overflow.

#: Every value an integer field can take, from the rules: a score is 0-9, a hand has two or
#: three cards, and a third card is worth 0-9, with -1 standing for "no third card".
CONDITION_FIELD_RANGES = {
    "player_score": (0, 9),
    "banker_score": (0, 9),
    "player_cards": (2, 3),
    "banker_cards": (2, 3),
    "total_cards": (4, 6),
    "player_third": (-1, 9),
    "banker_third": (-1, 9),
}
#: The same for the cards themselves: a dealt card is worth 0-9; a third card not dealt -1.
CARD_FIELD_RANGES = {
    f"{hand}_card{number}_value": (-1 if number == 3 else 0, 9)
    for hand in ("player", "banker")
    for number in (1, 2, 3)
} | {"max_card_value": (0, 9)}
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def mixed_value_reference(
    point_counts: list[int], rules: RuleTable | None = None, replacement: bool = False
) -> dict:
    """The probability of each (player_score, banker_score, player_third, banker_third)
    under ``rules`` (default: the standard game) played as its ``choices`` say: cards dealt
    one at a time from the counts of each point value (put back after each card with
    ``replacement``), each decision a branch weighted by its probability (no pure tableau
    is formed, and nothing is summed over a mixture)."""
    rules = RuleTable({}) if rules is None else rules
    out: dict = {}
    total = sum(point_counts)
    left = list(point_counts)

    def card(weight: Fraction):
        """Each point value the next card may have, and the chance of it and what came
        before; the card is taken from ``left`` while the caller looks at it."""
        n = sum(left)
        for v in range(10):
            if left[v]:
                chance = weight * Fraction(left[v], n)
                left[v] -= not replacement
                yield v, chance
                left[v] += not replacement

    def add(key, weight: Fraction) -> None:
        out[key] = out.get(key, Fraction(0)) + weight

    for p1, w1 in card(Fraction(1)):
        for b1, w2 in card(w1):
            for p2, w3 in card(w2):
                for b2, w4 in card(w3):
                    player, banker = (p1 + p2) % 10, (b1 + b2) % 10
                    if player in rules.naturals or banker in rules.naturals:
                        add((player, banker, None, None), w4)
                        continue
                    draw = rules.player_draws(player)
                    if draw < 1:  # the Player stands
                        stood = rules.banker_draws(banker, None)
                        if stood < 1:
                            add((player, banker, None, None), w4 * (1 - draw) * (1 - stood))
                        if stood > 0:
                            for y, w5 in card(w4 * (1 - draw) * stood):
                                add((player, (banker + y) % 10, None, y), w5)
                    if draw > 0:
                        for x, w5 in card(w4 * draw):
                            after = rules.banker_draws(banker, x)
                            if after < 1:
                                add(((player + x) % 10, banker, x, None), w5 * (1 - after))
                            if after > 0:
                                for y, w6 in card(w5 * after):
                                    add(((player + x) % 10, (banker + y) % 10, x, y), w6)
    assert sum(out.values()) == 1 and (replacement or total >= 6)
    return out


def physical_reference_with_replacement(
    cards: list[tuple[int, int]], rules: RuleTable | None = None
) -> Counter:
    """``physical_reference`` with the cards put back after each is dealt: every sequence
    of six of them, repeats allowed (len(cards) ** 6 in all)."""
    out: Counter = Counter()
    for seq in product(range(len(cards)), repeat=6):
        dealt = [cards[i] for i in seq]
        pts = [points(rank) for rank, _ in dealt]
        player, banker, pt, bt, _ = play(pts[:4], pts[4:], rules)
        key = (pair_state(dealt[0], dealt[2]), pair_state(dealt[1], dealt[3]))
        out[(*key, player, banker, pt, bt)] += 1
    return out


def condition_row(
    player_score: int,
    banker_score: int,
    player_third: int,
    banker_third: int,
    player_pair: int = 0,
    banker_pair: int = 0,
) -> dict:
    """Every field of one round, from its scores, third cards (-1: none) and pair states."""
    player_cards = 2 if player_third == -1 else 3
    banker_cards = 2 if banker_third == -1 else 3
    if player_score > banker_score:
        winner = "player"
    elif banker_score > player_score:
        winner = "banker"
    else:
        winner = "tie"
    player_natural = player_cards == 2 and player_score >= 8
    banker_natural = banker_cards == 2 and banker_score >= 8
    return {
        "player_score": player_score,
        "banker_score": banker_score,
        "player_cards": player_cards,
        "banker_cards": banker_cards,
        "total_cards": player_cards + banker_cards,
        "player_third": player_third,
        "banker_third": banker_third,
        "winner": winner,
        "natural": player_natural or banker_natural,
        "player_natural": player_natural,
        "banker_natural": banker_natural,
        "player_pair": player_pair >= 1,
        "banker_pair": banker_pair >= 1,
        "player_suited_pair": player_pair == 2,
        "banker_suited_pair": banker_pair == 2,
    }


def _compare(op: str, a, b) -> bool:
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    if op == ">=":
        return a >= b
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    raise KeyError(op)


def evaluate_condition(tree, row: dict):
    """The value of a condition tree on one row (a dict from condition_row)."""
    kind = tree[0]
    if kind == "field":
        return row[tree[1]]
    if kind in ("int", "str", "bool"):
        return tree[1]
    if kind == "neg":
        return -evaluate_condition(tree[1], row)
    if kind == "add":
        return evaluate_condition(tree[1], row) + evaluate_condition(tree[2], row)
    if kind == "sub":
        return evaluate_condition(tree[1], row) - evaluate_condition(tree[2], row)
    if kind == "mul":
        return evaluate_condition(tree[1], row) * evaluate_condition(tree[2], row)
    if kind == "not":
        return not evaluate_condition(tree[1], row)
    if kind == "and":
        return all(evaluate_condition(value, row) for value in tree[1])
    if kind == "or":
        return any(evaluate_condition(value, row) for value in tree[1])
    if kind == "compare":
        values = [evaluate_condition(operand, row) for operand in tree[1]]
        return all(_compare(op, values[i], values[i + 1]) for i, op in enumerate(tree[2]))
    if kind == "in":
        found = evaluate_condition(tree[1], row) in tree[2]
        return not found if tree[3] else found
    raise KeyError(kind)


def condition_range(tree) -> tuple[int, int]:
    """Lowest and highest value of an integer tree over all field values (intervals)."""
    kind = tree[0]
    if kind == "field":
        return CONDITION_FIELD_RANGES[tree[1]]
    if kind == "int":
        return tree[1], tree[1]
    if kind == "neg":
        lo, hi = condition_range(tree[1])
        return -hi, -lo
    (a, b), (c, d) = condition_range(tree[1]), condition_range(tree[2])
    if kind == "add":
        return a + c, b + d
    if kind == "sub":
        return a - d, b - c
    if kind == "mul":
        corners = [a * c, a * d, b * c, b * d]
        return min(corners), max(corners)
    raise KeyError(kind)


def condition_overflows(tree) -> bool:
    """Whether the range of some arithmetic in the tree leaves 64-bit integers."""
    kind = tree[0]
    if kind in ("neg", "add", "sub", "mul"):
        lo, hi = condition_range(tree)
        if lo < INT64_MIN or hi > INT64_MAX:
            return True
        return any(condition_overflows(child) for child in tree[1:])
    if kind == "not":
        return condition_overflows(tree[1])
    if kind in ("and", "or", "compare"):
        return any(condition_overflows(child) for child in tree[1])
    if kind == "in":
        return condition_overflows(tree[1])
    return False


# -- The cards themselves: every field of a dealt round, from its physical cards --------------

RANK_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUIT_NAMES = ["S", "H", "D", "C"]
RED_SUITS = {"H", "D"}


def card_round(dealt: list[tuple[int, int]], rules: RuleTable | None = None) -> tuple[dict, int]:
    """Every field of the round that six physical cards in deal order make, and how many
    of them it uses. A card is (rank 1..13, suit 0..3)."""
    pts = [points(rank) for rank, _ in dealt]
    player, banker, pt, bt, used = play(pts[:4], pts[4:], rules)
    row = condition_row(
        player,
        banker,
        -1 if pt is None else pt,
        -1 if bt is None else bt,
        pair_state(dealt[0], dealt[2]),
        pair_state(dealt[1], dealt[3]),
    )
    if rules is not None:  # a natural is a two-card total the rules call one
        for side in ("player", "banker"):
            row[f"{side}_natural"] = row[f"{side}_cards"] == 2 and row[f"{side}_score"] in (
                rules.naturals
            )
        row["natural"] = row["player_natural"] or row["banker_natural"]
    # Who got which card: P1 B1 P2 B2, then the Player's third if drawn, then the Banker's.
    hands = {"player_card1": dealt[0], "banker_card1": dealt[1]}
    hands |= {"player_card2": dealt[2], "banker_card2": dealt[3]}
    rest = iter(dealt[4:])
    hands["player_card3"] = next(rest) if pt is not None else None
    hands["banker_card3"] = next(rest) if bt is not None else None
    values = []
    for name, card in hands.items():
        if card is None:
            row |= {f"{name}_rank": "", f"{name}_suit": "", f"{name}_colour": ""}
            row[f"{name}_value"] = -1
            continue
        rank, suit = card
        suit_name = SUIT_NAMES[suit]
        row[f"{name}_rank"] = RANK_NAMES[rank - 1]
        row[f"{name}_suit"] = suit_name
        row[f"{name}_colour"] = "red" if suit_name in RED_SUITS else "black"
        row[f"{name}_value"] = points(rank)
        values.append(points(rank))
    row["max_card_value"] = max(values)
    first_four = [dealt[0], dealt[1], dealt[2], dealt[3]]
    all_dealt = [card for card in hands.values() if card is not None]
    row["first_four_pattern"] = _rank_pattern(first_four)
    row["first_four_flush"] = len({suit for _, suit in first_four}) == 1
    row["first_four_straight"] = _is_straight([rank for rank, _ in first_four])
    row["cards_pattern"] = _rank_pattern(all_dealt)
    return row, used


def _rank_pattern(cards: list[tuple[int, int]]) -> str:
    """How the cards share ranks: counts largest first, '2+1+1'."""
    ranks = [rank for rank, _ in cards]
    counts = sorted((ranks.count(rank) for rank in set(ranks)), reverse=True)
    return "+".join(map(str, counts))


def _is_straight(ranks: list[int]) -> bool:
    """Four ranks (1..13) in a row, an ace low (A-2-3-4) or high (J-Q-K-A)."""
    if len(set(ranks)) != 4:
        return False
    for high_ace in (False, True):
        shown = sorted(14 if high_ace and r == 1 else r for r in ranks)
        if shown[3] - shown[0] == 3:
            return True
    return False


def card_reference(
    cards: list[tuple[int, int]], fields: list[str], rules: RuleTable | None = None
) -> Counter:
    """Ordered six-card sequences of a tiny shoe of physical cards, counted by the values
    of ``fields`` in the round they deal."""
    if rules is None:  # every sequence's fields, dealt once per shoe (tests ask many)
        names, rows = _every_round(tuple(cards))
        at = [names.index(f) for f in fields]
        return Counter(tuple(row[i] for i in at) for row in rows)
    out: Counter = Counter()
    for seq in permutations(range(len(cards)), 6):
        row, _ = card_round([cards[i] for i in seq], rules)
        out[tuple(row[f] for f in fields)] += 1
    return out


@lru_cache(maxsize=4)
def _every_round(cards: tuple[tuple[int, int], ...]) -> tuple[tuple[str, ...], list[tuple]]:
    """Every field of the round each ordered six-card sequence of ``cards`` deals (the
    fields' names, and a row of their values per sequence): a tiny shoe's rounds dealt
    once, and counted by whatever fields are asked of them."""
    names: tuple[str, ...] = ()
    rows = []
    for seq in permutations(range(len(cards)), 6):
        row, _ = card_round([cards[i] for i in seq])
        names = names or tuple(sorted(row))
        rows.append(tuple(row[name] for name in names))
    return names, rows


#: The six cards of a round in deal order, by the names of their fields.
CARD_ROLES = (
    "player_card1",
    "banker_card1",
    "player_card2",
    "banker_card2",
    "player_card3",
    "banker_card3",
)


def suit_pattern_reference(cards: list[tuple[int, int]], fields: list[str]) -> Counter:
    """``card_reference`` as a bet that compares suits only with each other sees it: in
    each round dealt, of the suits ``fields`` ask for, the first shown (cards in deal
    order, P1 B1 P2 B2 P3 B3) is called 'S', the next other suit 'H', then 'D', then
    'C'."""
    asked = [f"{role}_suit" for role in CARD_ROLES if f"{role}_suit" in fields]
    out: Counter = Counter()
    for seq in permutations(range(len(cards)), 6):
        row, _ = card_round([cards[i] for i in seq])
        out[tuple(_suits_named_in_order(row, asked)[f] for f in fields)] += 1
    return out


def _suits_named_in_order(row: dict, asked: list[str]) -> dict:
    """``row`` with the suits of the fields ``asked`` (in deal order) renamed: the first
    shown 'S', the next other suit 'H', then 'D', then 'C'."""
    names: dict[str, str] = {"": ""}
    for name in asked:
        if row[name] not in names:
            names[row[name]] = SUIT_NAMES[len(names) - 1]
    return row | {name: names[row[name]] for name in asked}


def card_reference_with_replacement(cards: list[tuple[int, int]], fields: list[str]) -> Counter:
    """``card_reference`` for a tiny "deck" dealt with replacement: each of the six cards
    is any of ``cards`` (a card dealt is put back), ``len(cards)^6`` sequences in all,
    counted by the values of ``fields`` in the round they deal (cards a round does not use
    are dealt all the same, so each round counts once per way to deal the rest)."""
    out: Counter = Counter()
    for seq in product(range(len(cards)), repeat=6):
        row, _ = card_round([cards[i] for i in seq])
        out[tuple(row[f] for f in fields)] += 1
    return out


def suit_pattern_reference_with_replacement(
    cards: list[tuple[int, int]], fields: list[str]
) -> Counter:
    """``suit_pattern_reference`` for a tiny "deck" dealt with replacement (see
    ``card_reference_with_replacement``)."""
    asked = [f"{role}_suit" for role in CARD_ROLES if f"{role}_suit" in fields]
    out: Counter = Counter()
    for seq in product(range(len(cards)), repeat=6):
        row, _ = card_round([cards[i] for i in seq])
        out[tuple(_suits_named_in_order(row, asked)[f] for f in fields)] += 1
    return out


def double_suited_three_card_eights(decks: int) -> int:
    """Ordered six-card sequences of a full shoe in which both hands draw a third card,
    both end on 8, and each hand's three cards are of one suit (the Player's suit and the
    Banker's the same or not).

    Counted by point values: a suit of the shoe holds ``4 * decks`` cards of value 0 (10,
    J, Q, K) and ``decks`` of each other value. The Player's cards in one suit and the
    Banker's in another (4 * 3 ways to pick them) come from separate cards; in one suit
    (4 ways) from the same ones."""
    in_suit = [4 * decks] + [decks] * 9

    def ways(values: Counter) -> int:
        out = 1
        for value, k in values.items():
            out *= _falling(in_suit[value], k)
        return out

    total = 0
    for p1, p2, b1, b2 in product(range(10), repeat=4):
        player2, banker2 = (p1 + p2) % 10, (b1 + b2) % 10
        if not player_draws(player2) or banker2 >= 8:  # no natural: the Player draws
            continue
        p3 = (8 - player2) % 10
        if not banker_draws(banker2, p3):
            continue
        b3 = (8 - banker2) % 10
        player, banker = Counter((p1, p2, p3)), Counter((b1, b2, b3))
        total += 4 * 3 * ways(player) * ways(banker) + 4 * ways(player + banker)
    return total


def session_distribution(cycle, rounds):
    """Every sequence of outcomes of ``rounds`` independent rounds following ``cycle``
    (a list of {net: probability} dicts, repeated in order), enumerated one by one:
    session net -> probability, in Fractions."""
    from fractions import Fraction

    per_round = [list(cycle[i % len(cycle)].items()) for i in range(rounds)]
    out: dict = {}
    for sequence in product(*per_round):
        net, probability = Fraction(0), Fraction(1)
        for outcome_net, outcome_probability in sequence:
            net += outcome_net
            probability *= outcome_probability
        out[net] = out.get(net, Fraction(0)) + probability
    return out
