"""Dealing real shoes by the procedure of the help pages (docs/GAME.md).

A new shoe is shuffled (numpy ``Generator``, outside the kernels). The dealer shows the
first card and burns as many more as its value says (Ace 1 ... 9 9, a ten or face card
10); the shown card is discarded too. A cut card lies ``cut_card`` cards before the end
(default 14, as in most Asian baccarat). When it comes out, by default the round in
progress is the shoe's last (``last_round="cut-card"``); under the rule many casinos and
published counting studies use (``"one-more"``) the dealer finishes that round and deals
one more, unless the cut card came out in place of a round's first card, when that round
is the last. Rounds are numbered from 1.

A weak shuffle can be dealt instead (:func:`deal_shoes`' ``riffles``): the first shoe is
shuffled perfectly, each one after it is the cards of the shoe before as the discard rack
holds them (:func:`discard_stack`: the last card dealt on top, down to the shown card,
the cards never dealt beneath) riffled ``riffles`` times by the Gilbert-Shannon-Reeds
model (:func:`riffle`), the way a table that riffles its discards too few times deals.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from analyzer.engine.draw import banker_draws, player_draws
from analyzer.errors import AnalyzerError
from analyzer.game.cards import CARD_RANKS, CARD_SUITS, CARD_VALUES, N_CARDS
from analyzer.game.fields import (
    NO_PAIR,
    NO_THIRD,
    NO_THIRD_CARD,
    RANK_PAIR,
    SUITED_PAIR,
    derived_columns,
    pair_columns,
)
from analyzer.game.identities import counted_mask
from analyzer.game.rules import (
    BURN_BY_VALUE,
    NATURAL_SCORES,
    PLAYER_STOOD,
    STANDARD,
    DrawingRules,
    Strategy,
)
from analyzer.game.shoe import INFINITE, ROUND_CARDS
from analyzer.paytables.multipliers import Multipliers
from analyzer.runs import LAST_ROUND_RULES

N_CARD_TYPES = N_CARDS
#: Fields of a dealt round's record (third cards -1 when none, pair states as in
#: :mod:`analyzer.game.fields`).
ROUND_FIELDS = (
    "round",
    "start",
    "cards",
    "player_score",
    "banker_score",
    "player_third",
    "banker_third",
    "player_pair_state",
    "banker_pair_state",
)


@dataclass(frozen=True)
class Procedure:
    """How a shoe is dealt: decks, cut card depth (cards left behind it), burning, and
    the last-round rule (:data:`LAST_ROUND_RULES`, see the module docstring)."""

    decks: int = 8
    cut_card: int = 14
    burn: bool = True
    last_round: str = "cut-card"

    def __post_init__(self) -> None:
        if self.decks == INFINITE:
            raise AnalyzerError(
                "an infinite deck has no shoe to deal (cards dealt with replacement never run "
                "out): dealing needs a number of decks, 1 to 27"
            )
        if self.decks < 1:
            raise AnalyzerError(f"decks must be at least 1, got {self.decks}")
        if self.last_round not in LAST_ROUND_RULES:
            raise AnalyzerError(
                f"unknown last-round rule {self.last_round!r} "
                f"(rules: {', '.join(LAST_ROUND_RULES)})"
            )
        cards = 52 * self.decks
        if not ROUND_CARDS <= self.cut_card <= cards - 11 - ROUND_CARDS:
            raise AnalyzerError(
                f"cut card must leave {ROUND_CARDS} to {cards - 11 - ROUND_CARDS} cards behind it "
                f"in a {self.decks}-deck shoe, got {self.cut_card}"
            )

    @property
    def cards(self) -> int:
        return 52 * self.decks


def shuffled_shoe(rng: np.random.Generator, decks: int) -> np.ndarray:
    """Card indices (:func:`~analyzer.game.cards.card_index`) in dealing order."""
    return rng.permutation(np.repeat(np.arange(N_CARD_TYPES, dtype=np.int64), decks))


def riffle(rng: np.random.Generator, cards: np.ndarray, times: int = 1) -> np.ndarray:
    """``cards`` (top first) riffled ``times`` times by the Gilbert-Shannon-Reeds model:
    each time the pack is cut after a Binomial(n, 1/2) number of cards and the two
    packets are dropped together, every interleaving equally likely. Drawn as a uniform
    bit per place of the new pack (0: from the top packet): the top packet's cards fill
    the places marked 0, in order, the bottom packet's those marked 1 (the same law).

    Examples
    --------
    >>> riffle(np.random.default_rng(1), np.arange(6)).tolist()
    [0, 3, 4, 5, 1, 2]
    """
    out = np.asarray(cards)
    for _ in range(times):
        places = np.argsort(rng.integers(0, 2, len(out)), kind="stable")
        shuffled = np.empty_like(out)
        shuffled[places] = out
        out = shuffled
    return out


def discard_stack(cards: np.ndarray, dealt: int) -> np.ndarray:
    """A dealt shoe's cards as the discard rack holds them, top first: the ``dealt``
    cards (shown and burned ones included) from the last dealt down to the first, then
    the cards never dealt, in the order they lay in the shoe."""
    return np.concatenate([cards[:dealt][::-1], cards[dealt:]])


@njit(cache=True)
def _pair_state(card1, card2, card_ranks):
    """The pair state of two card indices: the same card, the same rank, or neither."""
    if card1 == card2:
        return SUITED_PAIR
    if card_ranks[card1] == card_ranks[card2]:
        return RANK_PAIR
    return NO_PAIR


@njit(cache=True)
def _deal_jit(
    cards, card_values, card_ranks, start, cut, one_more, draw_probability, uniforms, out
):
    """Deal rounds from ``start`` until the last round (the cut card rule).

    Parameters
    ----------
    cards : int64[n_cards]
        Card indices (:func:`~analyzer.game.cards.card_index`) in dealing order.
    card_values, card_ranks : int64[52]
        Point value and rank of each card index (:data:`~analyzer.game.cards.CARD_VALUES`,
        :data:`~analyzer.game.cards.CARD_RANKS`).
    start : int
        Index of the first card of round 1 (after the burn).
    cut : int
        Index of the first card behind the cut card: the cut card comes out in the round
        in which a card at or past it is dealt.
    one_more : bool
        False: that round is the shoe's last. True: one more round follows, unless that
        round began at ``cut`` (the cut card came out in place of its first card). A
        round needs six cards left to start.
    draw_probability : float64[10, 10, 12]
        The third-card rule as probabilities of drawing
        (:meth:`analyzer.game.rules.DrawingRules.draw_probabilities`): 0 or 1 but in a
        mixed decision cell.
    uniforms : float64[max_rounds, 2]
        Uniform numbers in [0, 1), drawn outside the kernel, for the Player's and the
        Banker's decision in round ``i + 1``: a hand draws when its number is below the
        probability (zeros when no cell is mixed: 0 < 1 draws, 0 < 0 stands).
    out : int64[max_rounds, len(ROUND_FIELDS)]
        Filled with one row per round: the ROUND_FIELDS of round ``i + 1``, third cards
        as NO_THIRD_CARD (-1) when none, as the fields have them.

    Returns
    -------
    int
        The number of rounds dealt.
    """
    p = start
    n = 0
    last = False
    while p + 6 <= cards.shape[0]:
        round_start = p
        p1, b1, p2, b2 = cards[p], cards[p + 1], cards[p + 2], cards[p + 3]
        player = (card_values[p1] + card_values[p2]) % 10
        banker = (card_values[b1] + card_values[b2]) % 10
        used = 4
        player_third = NO_THIRD
        banker_third = NO_THIRD
        if uniforms[n, 0] < player_draws(draw_probability, player, banker):
            player_third = card_values[cards[p + 4]]
            used = 5
            if uniforms[n, 1] < banker_draws(draw_probability, player, banker, player_third):
                banker_third = card_values[cards[p + 5]]
                used = 6
        elif uniforms[n, 1] < banker_draws(draw_probability, player, banker, PLAYER_STOOD):
            banker_third = card_values[cards[p + 4]]
            used = 5
        out[n, 0] = n + 1
        out[n, 1] = p
        out[n, 2] = used
        out[n, 3] = (player + (0 if player_third == NO_THIRD else player_third)) % 10
        out[n, 4] = (banker + (0 if banker_third == NO_THIRD else banker_third)) % 10
        out[n, 5] = NO_THIRD_CARD if player_third == NO_THIRD else player_third
        out[n, 6] = NO_THIRD_CARD if banker_third == NO_THIRD else banker_third
        out[n, 7] = _pair_state(p1, p2, card_ranks)
        out[n, 8] = _pair_state(b1, b2, card_ranks)
        n += 1
        p += used
        if last:
            break
        if p > cut:  # the cut card came out during this round
            if not one_more or round_start == cut:
                break
            last = True  # one more round, then the shoe ends
    return n


@njit(cache=True)
def _deal_shoes_jit(
    cards, card_values, card_ranks, starts, cut, one_more, draw_probability, uniforms, out, n
):
    """:func:`_deal_jit` of every shoe ``cards[i]`` from ``starts[i]``, with its
    ``uniforms[i]``, into ``out[i]``; ``n[i]``: its rounds."""
    for i in range(cards.shape[0]):
        n[i] = _deal_jit(
            cards[i], card_values, card_ranks, starts[i], cut, one_more, draw_probability,
            uniforms[i], out[i],
        )  # fmt: skip


def first_round_start(cards: np.ndarray, procedure: Procedure) -> int:
    """Index of the first card of round 1: after the shown card and the burn."""
    if not procedure.burn:
        return 0
    return 1 + int(BURN_BY_VALUE[CARD_VALUES[cards[0]]])


#: One dealt round: a record of int64 fields named by ROUND_FIELDS.
ROUND_DTYPE = np.dtype([(name, np.int64) for name in ROUND_FIELDS])


@dataclass(frozen=True, eq=False)
class Drawing:
    """How the hands draw as the dealer plays them: the rules and strategy as a table of
    draw probabilities, and whether any cell is mixed (then each round draws uniform
    numbers for its decisions)."""

    probability: np.ndarray
    naturals: tuple[int, ...] = NATURAL_SCORES

    @classmethod
    def of(cls, rules: DrawingRules | None = None, strategy: Strategy | None = None) -> Drawing:
        rules = STANDARD if rules is None else rules
        return cls(rules.draw_probabilities(strategy), rules.naturals)

    @property
    def mixed(self) -> bool:
        return bool(((self.probability > 0) & (self.probability < 1)).any())


STANDARD_DRAWING = Drawing.of()


def deal_shoe(
    cards: np.ndarray,
    procedure: Procedure,
    drawing: Drawing = STANDARD_DRAWING,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """Every round of one shuffled shoe: an array of :data:`ROUND_DTYPE` records
    (``rounds["start"]``, ``rounds["player_score"]``, ...), the hands drawing as
    ``drawing`` says (a mixed cell decided by uniform numbers from ``rng``)."""
    max_rounds = procedure.cards // 4 + 1
    out = np.empty((max_rounds, len(ROUND_FIELDS)), dtype=np.int64)
    if drawing.mixed:
        if rng is None:
            raise ValueError("a mixed strategy is dealt with random numbers: give rng")
        uniforms = rng.random((max_rounds, 2))
    else:
        uniforms = np.zeros((max_rounds, 2))
    n = _deal_jit(
        cards,
        CARD_VALUES,
        CARD_RANKS,
        first_round_start(cards, procedure),
        procedure.cards - procedure.cut_card,
        procedure.last_round == "one-more",
        drawing.probability,
        uniforms,
        out,
    )
    # The kernel fills plain int64 rows; the records name their columns.
    return out[:n].view(ROUND_DTYPE).reshape(n)


@dataclass(frozen=True, eq=False)
class DealtShoes:
    """Several shoes shuffled and dealt: ``cards[i]``, shoe ``i`` in dealing order;
    ``table[i, :n_rounds[i]]``, its rounds as plain int64 rows of :data:`ROUND_FIELDS`."""

    cards: np.ndarray
    table: np.ndarray
    n_rounds: np.ndarray

    def shoe(self, i: int) -> np.ndarray:
        """Shoe ``i``'s rounds, as :func:`deal_shoe` gives them."""
        return self.table[i, : self.n_rounds[i]].view(ROUND_DTYPE).reshape(-1)

    @property
    def rounds(self) -> np.ndarray:
        """Every round, shoe after shoe, as one array of :data:`ROUND_DTYPE` records."""
        dealt = np.arange(self.table.shape[1]) < self.n_rounds[:, None]
        return np.ascontiguousarray(self.table[dealt]).view(ROUND_DTYPE).reshape(-1)


def deal_shoes(
    rng: np.random.Generator,
    shoes: int,
    procedure: Procedure,
    drawing: Drawing = STANDARD_DRAWING,
    riffles: int = 0,
) -> DealtShoes:
    """``shoes`` shoes shuffled and dealt in one pass of the kernel: the same shoes and
    rounds, from the same random numbers, as ``shuffled_shoe`` then ``deal_shoe`` shoe
    after shoe (each shoe's shuffle, then its decisions' uniform numbers where a cell is
    mixed). ``riffles`` over 0: a weak shuffle (:func:`deal_riffled_shoes`)."""
    if riffles:
        return deal_riffled_shoes(rng, shoes, procedure, drawing, riffles)
    max_rounds = procedure.cards // 4 + 1
    cards = np.tile(np.repeat(np.arange(N_CARD_TYPES, dtype=np.int64), procedure.decks), (shoes, 1))
    uniforms = np.zeros((shoes, max_rounds, 2))
    mixed = drawing.mixed
    for i in range(shoes):
        rng.shuffle(cards[i])  # (what rng.permutation does to a copy)
        if mixed:
            uniforms[i] = rng.random((max_rounds, 2))
    if procedure.burn:
        starts = 1 + BURN_BY_VALUE[CARD_VALUES[cards[:, 0]]].astype(np.int64)
    else:
        starts = np.zeros(shoes, dtype=np.int64)
    table, n_rounds = deal_rows(
        cards, starts, procedure.cards - procedure.cut_card, procedure.last_round, drawing, uniforms
    )
    return DealtShoes(cards, table, n_rounds)


def deal_rows(
    cards: np.ndarray,
    starts: np.ndarray,
    cut: int,
    last_round: str,
    drawing: Drawing,
    uniforms: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Deal shoes already shuffled, of any size: ``cards[i]`` (card indices in dealing
    order, every shoe as long), round 1 at ``starts[i]``, the cut card in front of card
    ``cut``, the ``last_round`` rule, decisions by ``drawing`` and ``uniforms[i]`` (one
    row of two per round that can be dealt: ``cards.shape[1] // 4 + 1``). Returns
    ``(table, n_rounds)``: each shoe's rounds as int64 rows of :data:`ROUND_FIELDS`,
    ``table[i, :n_rounds[i]]``."""
    shoes, size = cards.shape
    max_rounds = size // 4 + 1
    if uniforms.shape != (shoes, max_rounds, 2) or starts.shape != (shoes,):
        raise ValueError(f"uniforms {uniforms.shape} or starts {starts.shape} do not fit cards")
    table = np.empty((shoes, max_rounds, len(ROUND_FIELDS)), dtype=np.int64)
    n_rounds = np.empty(shoes, dtype=np.int64)
    _deal_shoes_jit(
        np.ascontiguousarray(cards, dtype=np.int64), CARD_VALUES, CARD_RANKS,
        np.ascontiguousarray(starts, dtype=np.int64), cut, last_round == "one-more",
        drawing.probability, uniforms, table, n_rounds,
    )  # fmt: skip
    return table, n_rounds


def deal_riffled_shoes(
    rng: np.random.Generator,
    shoes: int,
    procedure: Procedure,
    drawing: Drawing = STANDARD_DRAWING,
    riffles: int = 1,
) -> DealtShoes:
    """``shoes`` shoes of one table dealt one after another, the first shuffled
    perfectly, each later one the shoe before's :func:`discard_stack` given
    :func:`riffle` ``riffles`` times; the random numbers drawn here, outside the kernel,
    shoe after shoe (its shuffle, then its decisions' uniform numbers where a cell is
    mixed), each shoe dealt by :func:`deal_shoe`'s kernel before the next is shuffled (it
    is made of where the last one stopped)."""
    if riffles < 1:
        raise ValueError(f"riffles must be at least 1, got {riffles}")
    max_rounds = procedure.cards // 4 + 1
    cards = np.empty((shoes, procedure.cards), dtype=np.int64)
    table = np.empty((shoes, max_rounds, len(ROUND_FIELDS)), dtype=np.int64)
    n_rounds = np.empty(shoes, dtype=np.int64)
    for i in range(shoes):
        if i == 0:
            cards[i] = shuffled_shoe(rng, procedure.decks)
        else:
            last = table[i - 1, n_rounds[i - 1] - 1]
            dealt = int(last[1] + last[2])  # the last round's start and cards
            cards[i] = riffle(rng, discard_stack(cards[i - 1], dealt), riffles)
        rounds = deal_shoe(cards[i], procedure, drawing, rng)
        n_rounds[i] = len(rounds)
        table[i, : len(rounds)] = rounds.view(np.int64).reshape(len(rounds), -1)
    return DealtShoes(cards, table, n_rounds)


@njit(cache=True)
def _compositions_jit(cards, starts, decks, out):
    """``out[i]``: cards of each type left in the shoe when round ``i`` starts (at card
    ``starts[i]``, ascending)."""
    left = np.full(out.shape[1], decks, dtype=np.int64)
    dealt = 0
    for i in range(starts.shape[0]):
        while dealt < starts[i]:
            left[cards[dealt]] -= 1
            dealt += 1
        out[i, :] = left


def compositions_at(cards: np.ndarray, rounds: np.ndarray, decks: int) -> np.ndarray:
    """The cards of each index (:func:`~analyzer.game.cards.card_index`) left in the shoe
    as each round of ``rounds`` (dealt from ``cards``, a ``decks``-deck shoe) starts,
    (rounds, 52) int64."""
    return compositions_at_starts(cards, rounds["start"], decks)


def compositions_at_starts(cards: np.ndarray, starts: np.ndarray, decks: int) -> np.ndarray:
    """The cards of each index left in the shoe ``cards`` (a ``decks``-deck shoe in
    dealing order) before card ``starts[i]`` is dealt, for each of ``starts``
    (ascending): (len(starts), 52) int64. Any game's rounds: a round starts at a card."""
    starts = np.ascontiguousarray(starts, dtype=np.int64)
    out = np.empty((len(starts), N_CARD_TYPES), dtype=np.int64)
    _compositions_jit(np.ascontiguousarray(cards, dtype=np.int64), starts, decks, out)
    return out


def join_rounds(parts: list[np.ndarray]) -> np.ndarray:
    """The rounds of several shoes as one array of records.

    Joined as plain int64 rows: numpy promotes the field types of every part when it
    joins record arrays, which costs more than dealing a shoe.
    """
    rows = [part.view(np.int64).reshape(-1, len(ROUND_FIELDS)) for part in parts]
    return np.concatenate(rows).view(ROUND_DTYPE).reshape(-1)


def round_identities(cards: np.ndarray, rounds: np.ndarray) -> np.ndarray:
    """The card index (0-51: rank and suit) of every card of each round, in
    :data:`~analyzer.game.fields.CARDS` order, -1 for a third card not dealt; ``cards``
    is the shoe the rounds came from."""
    start = rounds["start"]
    player_drew = rounds["player_third"] >= 0
    banker_drew = rounds["banker_third"] >= 0
    at = np.stack(
        [
            start,
            start + 1,
            start + 2,
            start + 3,
            np.where(player_drew, start + 4, -1),
            np.where(banker_drew, start + 4 + player_drew, -1),
        ],
        axis=1,
    )
    return np.where(at >= 0, cards[np.maximum(at, 0)], -1)


def special_factors(
    rng: np.random.Generator, identities: np.ndarray, model: Multipliers
) -> np.ndarray:
    """Draw each round's special cards and give every card of the round (``identities``
    as from :func:`round_identities`) its multiplier: 1 where it is not special, and every
    copy of a special identity that identity's one multiplier.

    Only what the round's own cards see is drawn, exactly as the full draw would decide
    it: ``K`` by the model, then each new identity of the round special with the chance
    that it is among the ``K`` given what the round's earlier identities were (the
    specials left over the identities left), and each special its value.
    """
    n = len(identities)
    counts = np.array([k for k, _ in model.cards])
    drawn = rng.choice(counts, size=n, p=np.array([float(p) for _, p in model.cards]))
    values = np.array([float(v) for v, _ in model.values])
    chances = np.array([float(p) for _, p in model.values])
    factors = np.ones(identities.shape)
    specials_seen = np.zeros(n)
    distinct_seen = np.zeros(n)
    rows = np.arange(n)
    for j in range(identities.shape[1]):
        card = identities[:, j]
        same = identities[:, :j] == card[:, None]
        repeat = same.any(axis=1) & (card >= 0)
        new = (card >= 0) & ~repeat
        chance = (drawn - specials_seen) / np.maximum(model.universe - distinct_seen, 1)
        special = new & (rng.random(n) < chance)
        value = rng.choice(values, size=n, p=chances)
        first = np.argmax(same, axis=1) if j else np.zeros(n, dtype=np.int64)
        factors[:, j] = np.where(special, value, np.where(repeat, factors[rows, first], 1.0))
        specials_seen += special
        distinct_seen += new
    return factors


def round_multipliers(
    factors: np.ndarray, identities: np.ndarray, winner: np.ndarray, kind: str, model: Multipliers
) -> np.ndarray:
    """Per round, the multiplier of the cards a bet multiplied by ``kind`` counts."""
    counted = counted_mask(kind, winner, identities >= 0)
    product = np.where(counted, factors, 1.0).prod(axis=1)
    return product if model.cap is None else np.minimum(product, float(model.cap))


def round_cards(cards: np.ndarray, rounds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank and suit of every card of each round, in :data:`~analyzer.game.fields.CARDS`
    order (-1 for a third card not dealt); ``cards`` is the shoe the rounds came from."""
    types = round_identities(cards, rounds)
    dealt = np.maximum(types, 0)
    return np.where(types >= 0, CARD_RANKS[dealt], -1), np.where(types >= 0, CARD_SUITS[dealt], -1)


def round_columns(
    rounds: np.ndarray, naturals: tuple[int, ...] = NATURAL_SCORES
) -> dict[str, np.ndarray]:
    """The condition fields of dealt rounds (records as from :func:`deal_shoe`)."""
    columns = derived_columns(
        rounds["player_score"],
        rounds["banker_score"],
        rounds["player_third"],
        rounds["banker_third"],
        naturals,
    )
    return columns | pair_columns(rounds["player_pair_state"], rounds["banker_pair_state"])
