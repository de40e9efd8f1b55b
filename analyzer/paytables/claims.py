"""Claims files: published figures about a paytable, each to be checked exactly.

A claims file is untrusted data (what ``tomllib`` returns): ``paytable`` (a shipped name,
or a file beside the claims file), optional ``decks`` and ``remove`` (the shoe of every
claim) and ``strategy`` (how the source played the rules' decision cells, e.g.
``"player:5=draw"``; a claim may give its own), and a list of ``[[claim]]`` tables. Each
claim names a ``quantity`` and the ``value`` its source printed, and whatever that
quantity needs: a ``bet``, a paying ``rule``, an ``event`` (a condition in the paytable's
own language), a session's ``rounds``... Every problem is one line naming the claim;
nothing in a file is executed.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.files import check_untrusted, read_toml
from analyzer.game.cards import Card, parse_cards
from analyzer.game.fields import CARDS
from analyzer.game.games import Vocabulary
from analyzer.game.rules import Strategy, parse_strategy
from analyzer.game.shoe import Decks, check_decks
from analyzer.memo import Pattern
from analyzer.paytables.conditions import Condition, parse_condition
from analyzer.paytables.library import claims_names, is_path, load_paytable, shipped_claims
from analyzer.paytables.model import MAX_ROUND, Paytable, parse_payout
from analyzer.paytables.printed import (
    MAX_SIGNIFICANT,
    ROUNDINGS,
    check_significant,
    read_printed,
)
from analyzer.records import record
from analyzer.schema import check_keys, optional, optional_note, table, whole_number

#: Figures about one bet that its exact analysis gives (the BetResult attribute or
#: property of each, and what a reader calls it).
BET_FIGURES = {
    "rtp": "rtp",
    "house_edge": "house_edge",
    "hit_frequency": "hit_frequency",
    "push": "push_probability",
    "variance": "variance",
    "std_dev": "variance",  # checked as the exact square root of the variance
    "edge_per_resolved": "edge_per_resolved",
    "return": "expected_value",
}
QUANTITIES = (
    *BET_FIGURES,
    "max_rtp",
    "payouts",
    "payout",
    "max_round",
    "decks",
    "count",
    "probability",
    "eor",
    "probability_change",
    "session",
    "resolved",
    "counting",
    "max_payout",
)
#: Facts of the paytable itself, compared as they are (no shoe enters).
PAYTABLE_FACTS = ("payouts", "payout", "max_round", "decks")
#: Quantities whose value is a printed number.
_FIGURES = frozenset(QUANTITIES) - set(PAYTABLE_FACTS)
#: What a session claim may state about the net result of its rounds.
SESSION_STATISTICS = (
    "mean",
    "std_dev",
    "p_ahead",
    "p_behind",
    "p_even",
    "p_win_at_least",
    "p_lose_at_least",
    "p_between",
    "quantile",
)
#: What each session statistic needs besides ``rounds``.
_SESSION_NEEDS = {
    "p_win_at_least": ("amount",),
    "p_lose_at_least": ("amount",),
    "p_between": ("low", "high"),
    "quantile": ("level",),
}
SESSION_METHODS = ("exact", "normal")
#: The most rounds a session claim may play (a long study's whole count of rounds).
MAX_SESSION_ROUNDS = 10**7
#: What a resolved claim may state of a bet's wins among the rounds it does not push
#: ("decisions", ties set aside): their share, or of the wins in ``decisions`` of them
#: (binomial), the mean, standard deviation or a chance.
RESOLVED_STATISTICS = (
    "share",
    "mean",
    "std_dev",
    "p_at_least",
    "p_at_most",
    "p_between",
    "quantile",
)
#: What each resolved statistic needs besides the bet (wins are whole numbers).
_RESOLVED_NEEDS = {
    "share": (),
    "mean": ("decisions",),
    "std_dev": ("decisions",),
    "p_at_least": ("decisions", "amount"),
    "p_at_most": ("decisions", "amount"),
    "p_between": ("decisions", "low", "high"),
    "quantile": ("decisions", "level"),
}
#: The most decisions a resolved claim may count: its mean and standard deviation are
#: closed forms at any number; a chance or a quantile sums the binomial exactly up to
#: :data:`EXACT_DECISIONS` decisions, and past it is a session's numeric value (with its
#: error bound), up to a session's most rounds.
MAX_DECISIONS = 10**9
EXACT_DECISIONS = 5_000
#: How a claim over several deck counts (``decks = [1, 2, 4, 6, 8]``) takes its figure
#: across them: the largest, the smallest, or both (``value`` then lists the two).
ACROSS = ("max", "min", "range")
#: How the source printed its figure: decimal digits of the exact value, or the digits of
#: a binary64 float (the double nearest the exact value).
PRINTED = ("decimal", "float")
COUNTING_STATISTICS = (
    "bet_frequency",
    "edge_when_bet",
    "units_per_shoe",
    "units_per_100_rounds",
    "rounds_per_shoe",
)
#: The most shoes a counting claim may simulate (about two minutes on one core), and the
#: default.
MAX_COUNTING_SHOES = 10**6
DEFAULT_COUNTING_SHOES = 20_000

_ATTRIBUTES = ("rank", "suit", "colour", "value")


@record
class Unordered:
    """How a source counts some of the first four cards without their order: ``groups``
    of card roles (``player_card1`` ...), each an unordered set of cards dealt from the
    shoe one set after the other (a hand's two cards, out of C(N, 2); the first four
    cards, out of C(N, 4))."""

    groups: tuple[tuple[str, ...], ...]

    @property
    def fields(self) -> frozenset[str]:
        """What an event counted so may ask: the attributes of these cards, a hand's pair
        where its two cards are one group, the four-card fields where all four are."""
        out = {f"{card}_{a}" for group in self.groups for card in group for a in _ATTRIBUTES}
        for group in self.groups:
            # A pair field names no card, so exchanging cards leaves its text as it is:
            # only a group of exactly the hand's two cards may ask it (it is symmetric in
            # them, and in nothing else).
            for hand in ("player", "banker"):
                if set(group) == {f"{hand}_card1", f"{hand}_card2"}:
                    out |= {f"{hand}_pair", f"{hand}_suited_pair"}
            if len(group) == 4:
                out |= {"first_four_pattern", "first_four_flush", "first_four_straight"}
        return frozenset(out)

    @property
    def swaps(self) -> tuple[dict[str, str], ...]:
        """Exchanges of two neighbouring cards of a group: every order of a group's cards
        is made of them, so a condition unchanged by each is unchanged by every order."""
        return tuple(
            {group[i]: group[i + 1], group[i + 1]: group[i]}
            for group in self.groups
            for i in range(len(group) - 1)
        )

    @property
    def orders(self) -> int:
        """Ordered deals of the cards per unordered set of them (2! for a pair)."""
        return math.prod(math.factorial(len(group)) for group in self.groups)

    @property
    def noun(self) -> str:
        """What one of its sets is called: ``pairs of cards``, ``sets of four cards``."""
        sizes = [len(group) for group in self.groups]
        if sizes == [2]:
            return "pairs of cards"
        if sizes == [2, 2]:
            return "pairs of cards for each hand"
        return "sets of four cards"

    def sets(self, size: int) -> int:
        """How many ways a shoe of ``size`` cards gives these sets, one after the other."""
        out, left = 1, size
        for group in self.groups:
            out *= math.comb(left, len(group))
            left -= len(group)
        return out


_P1, _B1, _P2, _B2 = CARDS[:4]
#: The ways of counting cards unordered a claim may name (``over``), each with the card
#: sets it may mean: "two_cards" is one hand's pair, whichever hand the event asks about.
OVER: dict[str, tuple[Unordered, ...]] = {
    "two_cards": (Unordered(((_P1, _P2),)), Unordered(((_B1, _B2),))),
    "two_cards_each": (Unordered(((_P1, _P2), (_B1, _B2))),),
    "four_cards": (Unordered(((_P1, _B1, _P2, _B2),)),),
}
#: What each ``over`` counts, for messages.
_OVER_WORDS = {
    "two_cards": "unordered pairs of one hand's first two cards",
    "two_cards_each": "each hand's first two cards as an unordered pair",
    "four_cards": "the first four cards as an unordered set",
}


@record
class ClaimKey:
    """One key of a claims file: what ``verify --explain`` prints of it, and which
    quantities take it (the parser refuses it elsewhere)."""

    name: str
    #: The TOML type(s) the key takes, in a reader's words.
    type: str
    #: Whether it must be given: "yes", "no", or when.
    required: str
    #: What a claim left without it gets ("-": nothing, it is required or needs none).
    default: str
    #: What it means, in one line.
    meaning: str
    #: A line of TOML giving it, as a claims file would.
    example: str
    #: The quantities a claim may give it for; ``None``: every quantity.
    quantities: tuple[str, ...] | None = None

    def takes(self, quantity: str) -> bool:
        """May a claim of ``quantity`` give this key?"""
        return self.quantities is None or quantity in self.quantities


_NOT_FACTS = tuple(q for q in QUANTITIES if q not in PAYTABLE_FACTS)
#: Figures computed exactly on a shoe: they may be stated across deck counts and as a
#: float prints them.
_EXACT_FIGURES = tuple(q for q in _NOT_FACTS if q != "counting")
_OF_A_BET = tuple(q for q in QUANTITIES if q not in ("max_rtp", "probability_change", "decks"))
_DEFAULT_STRATEGY = "the file's, else the paytable's [strategy]"

#: The keys at the top of a claims file, outside its ``[[claim]]`` tables.
FILE_KEYS: tuple[ClaimKey, ...] = (
    ClaimKey(
        "paytable",
        "string",
        "yes, here or in every claim",
        "-",
        "the paytable of every claim: a shipped name, or a .toml file beside the claims file",
        'paytable = "seed-game"',
    ),
    ClaimKey(
        "description",
        "string",
        "no",
        "none",
        "what the file is, for its readers (not checked)",
        'description = "the figures of the seed game\'s help page"',
    ),
    ClaimKey(
        "decks",
        'integer, or "inf"',
        "no",
        "the paytable's",
        "the decks of every claim's shoe, 1 to 27 (inf: cards dealt with replacement)",
        "decks = 8",
    ),
    ClaimKey(
        "remove",
        "string, or list of strings",
        "no",
        "none",
        "cards out of every claim's shoe; a bare rank is a card of unknown suit",
        'remove = "5H 5H KS"',
    ),
    ClaimKey(
        "strategy",
        "string",
        "no",
        "the paytable's [strategy]",
        "how the source played the rules' decision cells (CELL=CHOICE,...)",
        'strategy = "player:5=draw"',
    ),
    ClaimKey(
        "claim",
        "array of tables",
        "yes, one or more",
        "-",
        "the published figures, one [[claim]] table each, with the keys below",
        "[[claim]]",
    ),
)

#: The keys of a ``[[claim]]`` table, each with the quantities that take it: the one
#: definition both the parser and ``verify --explain`` read.
CLAIM_KEYS: tuple[ClaimKey, ...] = (
    ClaimKey(
        "quantity",
        "string",
        "yes",
        "-",
        f"what the figure is: {', '.join(QUANTITIES)}",
        'quantity = "house_edge"',
    ),
    ClaimKey(
        "value",
        'string (payouts: list of strings; payout: a string; max_round: integer or "none"; '
        'decks: integer or "inf"; count: or integer; across = "range": a list of two strings)',
        "yes",
        "-",
        "the figure as its source printed it: its digits set the precision of the check",
        'value = "1.06%"',
    ),
    ClaimKey(
        "paytable",
        "string",
        "unless the file names it",
        "the file's",
        "this claim's paytable: a shipped name, or a .toml file beside the claims file",
        'paytable = "ez-baccarat"',
    ),
    ClaimKey(
        "bet",
        "string",
        "yes but for max_rtp, decks, probability_change and an event's count or probability",
        "none",
        "the bet's id in the paytable (a session may give a mix instead)",
        'bet = "banker"',
        _OF_A_BET,
    ),
    ClaimKey(
        "mode",
        "string",
        "when the figure differs by mode",
        "none: every mode of the bet must give the same figure",
        "the betting mode the figure is about",
        'mode = "commission"',
        _OF_A_BET,
    ),
    ClaimKey(
        "rounding",
        "string",
        "no",
        '"round"',
        'how the source cut its digits: "round" (half away from zero) or "truncate"',
        'rounding = "truncate"',
    ),
    ClaimKey(
        "source",
        "string",
        "no",
        "none",
        "where the figure was published, shown with the verdict",
        'source = "the help page, seed 000"',
    ),
    ClaimKey(
        "scale",
        "number: integer or string",
        "no",
        "1",
        'the source printed the figure times this ("x100" columns), e.g. 100 or "1/2"',
        "scale = 100",
        _NOT_FACTS,
    ),
    ClaimKey(
        "digits",
        "integer",
        "no",
        "every printed digit",
        f"the source shows only this many significant digits, 1 to {MAX_SIGNIFICANT} (Excel: 15)",
        "digits = 15",
        _NOT_FACTS,
    ),
    ClaimKey(
        "slip",
        "string",
        "no",
        "none",
        "why the source's figure is known to be wrong: the claim still FAILs, saying so",
        'slip = "Excel\'s 15th digit"',
    ),
    ClaimKey(
        "strategy",
        "string",
        "no",
        _DEFAULT_STRATEGY,
        "how the source played the rules' decision cells (CELL=CHOICE,...)",
        'strategy = "player:5=draw"',
    ),
    ClaimKey(
        "decks",
        'integer, or "inf"; or a list of them (with across)',
        "no (a list needs across)",
        "the file's, else the paytable's",
        "the decks of this claim's shoe, 1 to 27 (inf: cards dealt with replacement); a list: "
        "the figure on each, taken as across says",
        "decks = 6",
        _NOT_FACTS,
    ),
    ClaimKey(
        "across",
        "string",
        "with a list of decks",
        "-",
        f"how a figure stated for every deck count of the list is taken: {', '.join(ACROSS)} "
        "(range: value lists the smallest and the largest)",
        'across = "max"',
        _EXACT_FIGURES,
    ),
    ClaimKey(
        "printed",
        "string",
        "no",
        '"decimal"',
        "how the source printed the figure: decimal (the exact value rounded to its digits) "
        "or float (the nearest double rounded to them, as repr or %.Nf prints it)",
        'printed = "float"',
        _EXACT_FIGURES,
    ),
    ClaimKey(
        "remove",
        "string, or list of strings",
        "for eor and probability_change",
        "the file's, else none",
        "cards out of this claim's shoe; for eor and probability_change, the cards whose "
        "removal the figure is about",
        'remove = "6"',
        tuple(q for q in _NOT_FACTS if q != "counting"),
    ),
    ClaimKey(
        "rule",
        "integer",
        "for count or probability of a bet's line: rule or label",
        "none: the whole bet",
        "the paying line of the bet, by the rule's number (1 for the first)",
        "rule = 1",
        ("return", "count", "probability"),
    ),
    ClaimKey(
        "label",
        "string",
        "for count or probability of a bet's line: rule or label",
        "none: the whole bet",
        "the paying line of the bet, by the rule's label",
        'label = "Banker wins"',
        ("return", "count", "probability"),
    ),
    ClaimKey(
        "event",
        "string",
        "for probability_change, and count or probability without a bet",
        "none",
        "a condition on the round, in the paytable's condition language",
        "event = \"winner == 'tie'\"",
        ("count", "probability", "probability_change"),
    ),
    ClaimKey(
        "given",
        "string",
        "no",
        "none: unconditional",
        "a condition the probability is conditional on (needs an event)",
        'given = "player_card1_value + player_card2_value in (5, 15)"',
        ("probability", "probability_change"),
    ),
    ClaimKey(
        "over",
        "string",
        "no",
        "none: ordered six-card rounds",
        f"count unordered cards as card tables do: {', '.join(OVER)}",
        'over = "two_cards"',
        ("count", "probability"),
    ),
    ClaimKey(
        "rounds",
        "integer",
        "for session",
        "-",
        f"how many one-unit bets the session plays, 1 to {MAX_SESSION_ROUNDS:,}",
        "rounds = 100",
        ("session",),
    ),
    ClaimKey(
        "decisions",
        "integer",
        "for resolved but share",
        "-",
        "how many resolved decisions (rounds the bet does not push): 1 to "
        f"{MAX_DECISIONS:,}, a chance or quantile to {MAX_SESSION_ROUNDS:,}",
        "decisions = 1000",
        ("resolved",),
    ),
    ClaimKey(
        "statistic",
        "string",
        "for session, resolved and counting",
        "-",
        f"session: {', '.join(SESSION_STATISTICS)}; resolved: "
        f"{', '.join(RESOLVED_STATISTICS)}; counting: {', '.join(COUNTING_STATISTICS)}",
        'statistic = "p_ahead"',
        ("session", "resolved", "counting"),
    ),
    ClaimKey(
        "mix",
        "table: bet id = rounds in a row",
        "no (a session gives bet or mix)",
        "none: the bet alone",
        "the bets a session plays in turn, each for its rounds in a row",
        "mix = { player = 1, banker = 2 }",
        ("session",),
    ),
    ClaimKey(
        "amount",
        "number: integer or string",
        "for p_win_at_least, p_lose_at_least, p_at_least and p_at_most",
        "-",
        "session: the net result (in money, with stake) it wins or loses at least; resolved: "
        "the number of wins",
        "amount = 10",
        ("session", "resolved"),
    ),
    ClaimKey(
        "low",
        "number: integer or string",
        "for p_between",
        "-",
        "the lowest net result (resolved: number of wins) of p_between (inclusive)",
        "low = -5",
        ("session", "resolved"),
    ),
    ClaimKey(
        "high",
        "number: integer or string",
        "for p_between",
        "-",
        "the highest net result (resolved: number of wins) of p_between (inclusive)",
        "high = 5",
        ("session", "resolved"),
    ),
    ClaimKey(
        "level",
        "number: integer or string",
        "for quantile",
        "-",
        "the probability of the quantile, between 0 and 1",
        'level = "0.05"',
        ("session", "resolved"),
    ),
    ClaimKey(
        "stake",
        "number: integer or string",
        "no",
        "1",
        "money per unit, when the source prints money",
        "stake = 10",
        ("session",),
    ),
    ClaimKey(
        "method",
        "string",
        "no",
        '"exact"',
        f"how the source computed a session: {' or '.join(SESSION_METHODS)} (the normal "
        "approximation)",
        'method = "normal"',
        ("session",),
    ),
    ClaimKey(
        "tags",
        "string",
        "no",
        "none: perfect play (bet when the exact EV is positive)",
        "the study's linear count tags, as count --tags",
        'tags = "A=0,2=0,3=-1,4=-1,5=-1,6=-2,7=1,8=2,9=2,10=0,J=0,Q=0,K=0"',
        ("counting",),
    ),
    ClaimKey(
        "threshold",
        "number: integer or string",
        "with tags",
        "-",
        "the true count at which the study bet, as count --threshold",
        "threshold = 8",
        ("counting",),
    ),
    ClaimKey(
        "cut_card",
        "integer",
        "no",
        "14",
        "cards left behind the cut card",
        "cut_card = 14",
        ("counting",),
    ),
    ClaimKey(
        "last_round",
        "string",
        "no",
        '"cut-card"',
        'when the cut card comes out: that round is the last ("cut-card"), or "one-more"',
        'last_round = "one-more"',
        ("counting",),
    ),
    ClaimKey(
        "true_count_decks",
        "string",
        "no",
        '"in-shoe"',
        'what the true count divides by: decks "in-shoe", or every card "unseen"',
        'true_count_decks = "unseen"',
        ("counting",),
    ),
    ClaimKey(
        "burn",
        "boolean",
        "no",
        "true",
        "whether each shoe begins with the burn",
        "burn = false",
        ("counting",),
    ),
    ClaimKey(
        "shoes",
        "integer",
        "no",
        f"{DEFAULT_COUNTING_SHOES:,}",
        f"shoes dealt to check the study, 100 to {MAX_COUNTING_SHOES:,}",
        "shoes = 6000",
        ("counting",),
    ),
    ClaimKey(
        "seed",
        "integer",
        "no",
        "1",
        "the random seed of the shoes dealt",
        "seed = 7",
        ("counting",),
    ),
)


def claim_keys(quantity: str) -> frozenset[str]:
    """The keys a claim of ``quantity`` may give."""
    return frozenset(key.name for key in CLAIM_KEYS if key.takes(quantity))


#: What each quantity is, in one line (``verify --explain``).
QUANTITY_MEANINGS: dict[str, str] = {
    "rtp": "a bet's return to player per unit staked",
    "house_edge": "a bet's house edge per unit staked",
    "hit_frequency": "the probability that a bet wins",
    "push": "the probability that a bet pushes",
    "variance": "the variance of a bet's net result per unit staked",
    "std_dev": "its standard deviation (exactly: the square root of the exact variance)",
    "edge_per_resolved": "the house edge per bet that does not push",
    "return": "the expected net result per unit; with rule or label, one line's pays times "
    "its probability",
    "max_rtp": "the game's best bet's RTP",
    "payouts": "what the bet pays, as a list compared as a multiset (no shoe enters)",
    "payout": "one payout the bet pays on one of its lines (no shoe enters): a help page's "
    "payouts checked one by one",
    "max_round": "the bet's max round (no shoe enters)",
    "decks": "the number of decks the paytable deals (inf: an infinite deck)",
    "count": "ordered six-card rounds of a bet's line or of an event (with over: unordered cards)",
    "probability": "of a bet's line, or of an event, optionally given another condition",
    "eor": "the change in a bet's EV when the cards of remove leave the shoe",
    "probability_change": "the change in an event's probability when the cards of remove "
    "leave the shoe",
    "session": "a statistic of the net result of rounds one-unit bets off the top of the shoe",
    "resolved": "a bet's wins among its resolved decisions (rounds it does not push, ties set "
    "aside): their share, or a statistic of the wins in decisions of them (binomial)",
    "counting": "a counting study's statistic, checked by dealing shoes",
    "max_payout": "the largest win per unit staked a round can pay the bet (to 1): its "
    "multiplied payouts at the largest multiplier its counted cards can carry, capped",
}

#: How a printed figure's digits decide its verdict (``verify --explain``).
PRINTED_DIGITS_RULE = """\
A figure is checked at the digits its source printed. Its value is text as printed: a
sign (- or the typographic minus), digits (grouped in thousands by commas, spaces,
apostrophes or underscores, or not), a decimal point, an exponent (1.8e-4) and % (then
the exact value is taken times 100). The exact value, times scale, is rounded to the
printed figure's last digit (half away from zero; rounding = "truncate": toward zero),
with integers only, and must equal the printed figure: "98.94%" is checked to 0.01%,
"0.458597" to 1e-6, "4,998,398,275,503,360" to the unit. digits = D: the source shows
only D significant digits (Excel: 15), so the figure is compared at its Dth. PASS when
they are equal; FAIL (last digit) when they differ by one in the last digit compared,
the commonest slip of a source; else FAIL. A session known only within a bound passes
when some value within it prints as printed; a counting claim passes when the printed
figure is within 3 standard errors of the simulated value; payouts, max_round and
decks are compared as they are (a payout: one of the bet's). printed = "float": the source
printed a binary64 float, so the double nearest the exact value (times scale, and 100 for a
%: one product of doubles, rounded to a double as a program computes it) is rounded half to
even at the printed figure's last digit, as repr, %.Nf and %.Ne print it; a 17-digit figure
is then checked to its last digit. decks = [1, 2, 4, 6, 8] with across = "max" or "min": the
largest or smallest of
the figure over those shoes is compared; across = "range": value = ["low", "high"], both
compared. A paytable with unknowns (no --unknowns): a bet's figure or max_rtp is answered
by the set of unknowns it allows, as fit solves it: PASS when some point of the declared
ranges prints as printed (a point checked exactly), FAIL when none does. UNCHECKED: the
shoe cannot give the figure exactly (a bet on suits once a card of unknown suit is out),
or the unknowns leave a figure fit does not solve open."""

#: A claims file whose every claim passes (``verify --explain`` prints it; a test
#: verifies it).
EXAMPLE_CLAIMS = """\
description = "a few figures of the seed game, one of each kind"
paytable = "seed-game"

[[claim]]
quantity = "max_rtp"
value = "98.94%"
source = "the help page"

[[claim]]
bet = "banker"
mode = "commission"
quantity = "house_edge"
value = "1.06%"

[[claim]]
bet = "banker"
mode = "commission"
quantity = "payouts"
value = ["0.95:1"]

[[claim]]
bet = "player_pair"
quantity = "max_round"
value = 60

[[claim]]
bet = "banker"
mode = "commission"
quantity = "count"
label = "Banker wins"
value = "2,292,252,566,437,890"
digits = 15

[[claim]]
quantity = "probability"
event = "winner == 'player'"
given = "player_card1_value + player_card2_value in (5, 15)"
value = "0.3585"
decks = 6

[[claim]]
quantity = "probability"
event = "player_pair"
over = "two_cards"
value = "0.0747"

[[claim]]
bet = "tie"
quantity = "eor"
remove = "6"
value = "-0.116"
scale = 100

[[claim]]
bet = "player"
quantity = "session"
rounds = 100
statistic = "p_ahead"
value = "0.428"

[[claim]]
bet = "banker"
quantity = "resolved"
statistic = "share"
value = "50.68%"

[[claim]]
bet = "player"
quantity = "house_edge"
decks = [1, 2, 4, 6, 8]
across = "max"
value = "1.29%\""""


def _key_lines(key: ClaimKey, width: int) -> list[str]:
    import textwrap

    indent = " " * 6
    lines = [f"  {key.name}"]
    facts = f"{key.type}; required: {key.required}; default: {key.default}"
    lines += textwrap.wrap(facts, width, initial_indent=indent, subsequent_indent=indent)
    lines += textwrap.wrap(key.meaning, width, initial_indent=indent, subsequent_indent=indent)
    if key.quantities is not None:
        left_out = [q for q in QUANTITIES if q not in key.quantities]
        if len(left_out) < len(key.quantities):
            taken = f"taken by every quantity but {', '.join(left_out)}"
        else:
            taken = f"taken by {', '.join(key.quantities)} only"
        lines += textwrap.wrap(taken, width, initial_indent=indent, subsequent_indent=indent)
    lines.append(f"{indent}e.g. {key.example}")
    return lines


def claims_format(width: int = 88) -> str:
    """The claims file's format as plain text (``verify --explain``): every key of
    :data:`FILE_KEYS` and :data:`CLAIM_KEYS` with its type, whether required, its default,
    its meaning and an example; the quantities; the printed-digits rule; and an example
    file.

    Parameters
    ----------
    width : int
        The longest line of wrapped text.

    Returns
    -------
    str
        The text, ending in a newline.

    Examples
    --------
    >>> "quantity" in claims_format()
    True
    """
    out = [
        "A claims file is a TOML file of published figures, each checked by `verify` "
        "against the exact value. Its top holds the keys that apply to every claim; then "
        "one [[claim]] table per figure.",
        "",
        "File keys:",
    ]
    out[0:1] = _wrap(out[0], width)
    for key in FILE_KEYS:
        out += _key_lines(key, width)
    out += ["", "Claim keys (each [[claim]] table; a key is refused by a quantity that does "
            "not take it):"]  # fmt: skip
    for key in CLAIM_KEYS:
        out += _key_lines(key, width)
    out += ["", "Quantities:"]
    for quantity in QUANTITIES:
        out += _wrap(
            f"{quantity}: {QUANTITY_MEANINGS[quantity]}",
            width,
            "  ",
            " " * 6,
        )
    out += ["", "Printed digits:", *PRINTED_DIGITS_RULE.splitlines()]
    out += ["", "An example file (every claim passes):", "", *EXAMPLE_CLAIMS.splitlines()]
    return "\n".join(out) + "\n"


def _wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    import textwrap

    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest)


def unordered(over: str, fields: frozenset[str], where: str) -> Unordered:
    """The card sets ``over`` means for conditions asking ``fields``; one line if they
    ask about more than those cards."""
    for choice in OVER[over]:
        if fields <= choice.fields:
            return choice
    raise AnalyzerError(
        f'{where}: over = "{over}" counts {_OVER_WORDS[over]}, but the condition asks '
        f"about more: {', '.join(sorted(fields - OVER[over][0].fields))[:120]}"
    )


_NUMBER = Pattern(
    r"^\s*[+-]?([0-9]{1,30}(\.[0-9]{1,30})?|\.[0-9]{1,30})([eE][+-]?[0-9]{1,2})?(/[0-9]{1,30})?\s*$"
)


@record
class SessionSpec:
    """A session: ``rounds`` one-unit bets, played as ``mix`` says (each bet id, and how
    many rounds in a row it is bet), and the statistic claimed of the net result."""

    rounds: int
    statistic: str
    mix: tuple[tuple[str, int], ...]
    amount: Fraction | None = None
    low: Fraction | None = None
    high: Fraction | None = None
    level: Fraction | None = None
    stake: Fraction = Fraction(1)  # money per unit: amounts and results are in money
    method: str = "exact"

    def describe(self) -> str:
        """``p_win_at_least 50 after 1,000 rounds of player (stake 10)``."""
        bets = " then ".join(bet if times == 1 else f"{bet} x{times}" for bet, times in self.mix)
        given = {
            "p_win_at_least": self.amount,
            "p_lose_at_least": self.amount,
            "quantile": self.level,
        }.get(self.statistic)
        if self.statistic == "p_between":
            what = f"p_between {self.low} and {self.high}"
        else:
            what = self.statistic if given is None else f"{self.statistic} {given}"
        stake = "" if self.stake == 1 else f" (stake {self.stake})"
        normal = ", normal approximation" if self.method == "normal" else ""
        return f"{what} after {self.rounds:,} rounds of {bets}{stake}{normal}"


@record
class ResolvedSpec:
    """A bet's wins among the rounds it does not push (its resolved decisions: ties set
    aside for Player and Banker): their ``share``, or a statistic of the wins in
    ``decisions`` of them, which are binomial with that share."""

    statistic: str
    decisions: int | None = None
    amount: int | None = None  # p_at_least, p_at_most: the number of wins
    low: int | None = None  # p_between: the wins, inclusive
    high: int | None = None
    level: Fraction | None = None  # quantile: its probability

    def describe(self) -> str:
        """``share won``, ``p_at_least 520 wins in 1,000 decisions``."""
        if self.statistic == "share":
            return "share won"
        what = {
            "mean": "mean wins",
            "std_dev": "std_dev of wins",
            "p_at_least": f"p_at_least {self.amount} wins",
            "p_at_most": f"p_at_most {self.amount} wins",
            "p_between": f"p_between {self.low} and {self.high} wins",
            "quantile": f"quantile {self.level} of wins",
        }[self.statistic]
        return f"{what} in {self.decisions:,} decisions"


@record
class CountingSpec:
    """A published counting study, to be simulated: what it measured and how it dealt."""

    statistic: str
    tags: str | None
    threshold: float | None
    cut_card: int | None
    last_round: str | None
    true_count_decks: str | None
    burn: bool | None
    shoes: int
    seed: int

    def describe(self) -> str:
        """``bet_frequency of the count A=0,...,9=2 at >= 8``, or of perfect play."""
        if self.tags is None:
            return f"{self.statistic} of perfect play"
        return f"{self.statistic} of the count {self.tags} at >= {self.threshold:g}"


@record
class Claim:
    """One published figure. ``remove`` is the cards out of the claim's shoe; for
    ``eor`` and ``probability_change`` ``effect_of`` is the cards whose removal the figure
    is about (the claim's own ``remove``)."""

    number: int
    paytable: str
    quantity: str
    value: object
    bet: str | None = None
    mode: str | None = None
    rounding: str = "round"
    source: str = ""
    rule: int | None = None
    label: str | None = None
    event: Condition | None = None
    given: Condition | None = None
    over: str | None = None
    digits: int | None = None
    scale: Fraction = Fraction(1)
    decks: int | None = None
    remove: tuple[Card, ...] = ()
    effect_of: tuple[Card, ...] = ()
    session: SessionSpec | None = None
    counting: CountingSpec | None = None
    #: Why the source's figure is wrong, when it is known to be: the claim still FAILs.
    slip: str = ""
    #: How the source played the rules' decision cells (on top of the paytable's own
    #: ``[strategy]``): "Player hits on 5" is ``player:5=draw``.
    strategy: Strategy | None = None
    #: How the figure was printed: "decimal" digits of the exact value, or a "float"'s.
    printed: str = "decimal"
    #: A figure stated over several deck counts (``decks = [1, 2, 4, 6, 8]``): each, and
    #: how it is taken across them (:data:`ACROSS`); ``decks`` is then None.
    decks_over: tuple[Decks, ...] = ()
    across: str | None = None
    resolved: ResolvedSpec | None = None

    @property
    def subject(self) -> str:
        """What the claim is about, in a few words: a bet (and its line), a mix of bets,
        an event, or the game."""
        if self.event is not None:
            given = f" given {self.given.shown}" if self.given is not None else ""
            return f"event {self.event.shown}{given}"
        if self.session is not None:
            return self.session.describe()
        if self.resolved is not None:
            return f"{self.bet}: {self.resolved.describe()}"
        if self.counting is not None:
            return f"{self.counting.describe()} on {self.bet}"
        if self.bet is None:
            return "(game)"
        line = f" rule {self.rule}" if self.rule else f" line {self.label!r}" if self.label else ""
        return self.bet + line

    @property
    def full_shoe(self) -> bool:
        """Is the claim about its paytable's own full shoe?"""
        return self.decks is None and not self.decks_over and not self.remove


def _number(value: object, where: str, key: str, positive: bool = False) -> Fraction:
    """An exact number from a claim: a whole number, or text ("0.95", "1/100")."""
    if isinstance(value, bool) or not isinstance(value, (int, str, float)):
        raise AnalyzerError(f'{where}: {key!r} must be a number, e.g. 100 or "0.5"')
    if isinstance(value, float):
        if not math.isfinite(value):
            raise AnalyzerError(f"{where}: {key!r} must be a finite number")
        value = repr(value)
    text = str(value)
    if not _NUMBER.match(text):
        raise AnalyzerError(f"{where}: {key!r} must be a number, got {text[:40]!r}")
    numerator, _, denominator = text.strip().partition("/")
    if denominator and int(denominator) == 0:
        raise AnalyzerError(f"{where}: {key!r} divides by zero")
    number = Fraction(numerator) / (Fraction(denominator) if denominator else 1)
    if abs(number) > 10**15:
        raise AnalyzerError(f"{where}: {key!r} is too large (at most 1e15)")
    if positive and number <= 0:
        raise AnalyzerError(f"{where}: {key!r} must be more than 0")
    return number


def _cards(value: object, where: str, key: str) -> tuple[Card, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise AnalyzerError(f'{where}: {key!r} must be cards as text, e.g. "5H 5H KS"')
    try:
        cards = tuple(parse_cards(value, suit_required=False))
    except AnalyzerError as exc:
        raise AnalyzerError(f"{where}: {key!r}: {exc}") from None
    if len(cards) > 52 * 27:
        raise AnalyzerError(f"{where}: {key!r} names more cards than any shoe holds")
    return cards


def _condition(item: Mapping[str, Any], key: str, where: str, paytable: str) -> Condition | None:
    """The condition ``key`` of a claim, in the fields of the game of ``paytable``."""
    if key not in item:
        return None
    text = item[key]
    if not isinstance(text, str):
        raise AnalyzerError(f"{where}: {key!r} must be a condition, e.g. \"winner == 'tie'\"")
    try:
        return parse_condition(text, _vocabulary(paytable))
    except AnalyzerError as exc:
        raise AnalyzerError(f"{where}: {key!r}: {exc}") from None


def _vocabulary(paytable: str) -> Vocabulary | None:
    """The fields of the game ``paytable`` is on (None: punto banco's)."""
    game = load_paytable(paytable).game
    return None if game is None else game.vocabulary


def _paytable_named(item: Mapping[str, Any], default: object, where: str, base: Path | None):
    paytable = item.get("paytable", default)
    if not isinstance(paytable, str):
        raise AnalyzerError(f"{where}: name its 'paytable' (a file or a shipped name)")
    if is_path(paytable):
        # A file named in a claims file is found beside the claims file, never
        # wherever the command happens to run.
        if base is None:
            raise AnalyzerError(f"{where}: a shipped claims file names shipped paytables")
        path = base / paytable
        if not os.path.isfile(path):
            raise AnalyzerError(
                f"{where}: paytable file {paytable!r} not found beside the claims file ({path})"
            )
        paytable = str(path)
    return paytable


def _is_payout(value: object) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _check_value(
    item: Mapping[str, Any], quantity: str, digits: int | None, where: str, across: str | None
) -> object:
    if "value" not in item:
        raise AnalyzerError(f"{where}: missing 'value' (the published figure)")
    value = item["value"]
    if across == "range":
        if not (isinstance(value, list) and len(value) == 2):
            raise AnalyzerError(
                f'{where}: across = "range" states the smallest and the largest: value = '
                '["1.01%", "1.24%"]'
            )
        return tuple(_printed_figure(v, quantity, digits, where) for v in value)
    if isinstance(value, list) and quantity != "payouts":
        raise AnalyzerError(
            f'{where}: a list of values is a range: give decks a list and across = "range"'
        )
    if quantity == "payouts":
        if not (
            isinstance(value, list)
            and value
            and all(isinstance(v, (str, int, float)) for v in value)
        ):
            raise AnalyzerError(
                f'{where}: \'payouts\' value must be a list such as ["12:1", "20:1"]'
            )
        for printed in value:
            try:
                parse_payout(printed)
            except AnalyzerError as exc:
                raise AnalyzerError(f"{where}: {exc}") from None
        return value
    if quantity == "payout":
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise AnalyzerError(f"{where}: a 'payout' value is one payout such as \"12:1\"")
        try:
            parse_payout(value)
        except AnalyzerError as exc:
            raise AnalyzerError(f"{where}: {exc}") from None
        return value
    if quantity == "max_round":
        if value != "none":
            whole_number(value, where, "a 'max_round' value (or \"none\")", 1, MAX_ROUND)
        return value
    if quantity == "decks":
        try:
            return check_decks(value, "a 'decks' value")
        except AnalyzerError as exc:
            raise AnalyzerError(f"{where}: {exc}") from None
    return _printed_figure(value, quantity, digits, where)


def _printed_figure(value: object, quantity: str, digits: int | None, where: str) -> str:
    """One printed figure of a claim, read to check it (the text as printed, stripped)."""
    if quantity == "count" and isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value < 10**30:
            raise AnalyzerError(f"{where}: a count is a whole number of at most 30 digits")
        value = str(value)
    if not isinstance(value, str):
        raise AnalyzerError(f'{where}: value must be printed as a string, e.g. "98.94%"')
    if quantity == "max_payout" and re.search(r"(:|\bto)\s*1\s*$", value):
        raise AnalyzerError(
            f"{where}: a max_payout value is the win per unit staked, printed as a number: "
            'write "1,280:1" as "1,280"'
        )
    try:
        printed = read_printed(value, digits)
    except AnalyzerError as exc:
        raise AnalyzerError(f"{where}: {exc}") from None
    negative = value.strip()[:1] in "-\u2212"
    if quantity == "count" and (printed.percent or printed.exponent < 0 or negative):
        raise AnalyzerError(f"{where}: a count is a whole number, got {value[:40]!r}")
    return value.strip()


def _line(item: Mapping[str, Any], where: str) -> tuple[int | None, str | None]:
    if "rule" in item and "label" in item:
        raise AnalyzerError(f"{where}: name the line by 'rule' or by 'label', not both")
    rule = item.get("rule")
    if rule is not None:
        whole_number(rule, where, "'rule' (a rule's number, 1 for the first)", 1, 10**4)
    return rule, optional(item, "label", str, where)


def _session(item: Mapping[str, Any], where: str) -> SessionSpec:
    if "rounds" not in item:
        raise AnalyzerError(f"{where}: a session claim needs 'rounds' (how many rounds)")
    rounds = whole_number(item["rounds"], where, "'rounds'", 1, MAX_SESSION_ROUNDS)
    statistic = item.get("statistic")
    if statistic is None:
        raise AnalyzerError(f"{where}: needs a 'statistic': one of {', '.join(SESSION_STATISTICS)}")
    if statistic not in SESSION_STATISTICS:
        raise AnalyzerError(
            f"{where}: a session's 'statistic' must be one of {', '.join(SESSION_STATISTICS)}, "
            f"got {statistic!r:.40}"
        )
    needs = _SESSION_NEEDS.get(statistic, ())
    for key in ("amount", "low", "high", "level"):
        if key in needs and key not in item:
            raise AnalyzerError(f"{where}: statistic {statistic!r} needs {key!r}")
        if key not in needs and key in item:
            raise AnalyzerError(f"{where}: statistic {statistic!r} takes no {key!r}")
    numbers = {key: _number(item[key], where, key) for key in needs}
    level = numbers.get("level")
    if level is not None and not 0 < level < 1:
        raise AnalyzerError(f"{where}: 'level' is a probability between 0 and 1, got {level}")
    if "low" in numbers and numbers["low"] > numbers["high"]:
        raise AnalyzerError(f"{where}: 'low' is more than 'high'")
    if "mix" in item and "bet" in item:
        raise AnalyzerError(f"{where}: give the 'bet' or a 'mix' of bets, not both")
    if "mix" in item:
        mix_table = table(item["mix"], where, "'mix' (bet id = rounds in a row)")
        if not mix_table:
            raise AnalyzerError(f"{where}: 'mix' names no bet")
        mix = tuple(
            (bet, whole_number(times, where, f"'mix' of {bet!r}", 1, 1000))
            for bet, times in mix_table.items()
        )
    elif isinstance(item.get("bet"), str):
        mix = ((item["bet"], 1),)
    else:
        raise AnalyzerError(f"{where}: a session claim needs a 'bet' or a 'mix' of bets")
    method = item.get("method", "exact")
    if method not in SESSION_METHODS:
        raise AnalyzerError(f"{where}: 'method' must be {' or '.join(SESSION_METHODS)}")
    if method == "normal" and statistic == "p_even":
        raise AnalyzerError(f"{where}: the normal approximation gives no chance of breaking even")
    stake = _number(item["stake"], where, "stake", positive=True) if "stake" in item else 1
    return SessionSpec(
        rounds,
        statistic,
        mix,
        numbers.get("amount"),
        numbers.get("low"),
        numbers.get("high"),
        level,
        Fraction(stake),
        method,
    )


def _resolved(item: Mapping[str, Any], where: str) -> ResolvedSpec:
    statistic = item.get("statistic")
    if statistic not in RESOLVED_STATISTICS:
        raise AnalyzerError(
            f"{where}: a resolved claim's 'statistic' must be one of "
            f"{', '.join(RESOLVED_STATISTICS)}, got {statistic!r:.40}"
        )
    needs = _RESOLVED_NEEDS[statistic]
    for key in ("decisions", "amount", "low", "high", "level"):
        if key in needs and key not in item:
            raise AnalyzerError(f"{where}: statistic {statistic!r} needs {key!r}")
        if key not in needs and key in item:
            raise AnalyzerError(
                f"{where}: statistic {statistic!r} takes no {key!r}"
                + (" (a share is of every resolved decision)" if key == "decisions" else "")
            )
    decisions = None
    if "decisions" in needs:
        top = MAX_DECISIONS if statistic in ("mean", "std_dev") else MAX_SESSION_ROUNDS
        decisions = whole_number(item["decisions"], where, "'decisions'", 1, top)
    wins = {
        key: whole_number(item[key], where, f"{key!r} (a number of wins)", 0, decisions or 0)
        for key in ("amount", "low", "high")
        if key in needs
    }
    if "low" in wins and wins["low"] > wins["high"]:
        raise AnalyzerError(f"{where}: 'low' is more than 'high'")
    level = None
    if "level" in needs:
        level = _number(item["level"], where, "level")
        if not 0 < level < 1:
            raise AnalyzerError(f"{where}: 'level' is a probability between 0 and 1, got {level}")
    return ResolvedSpec(
        statistic, decisions, wins.get("amount"), wins.get("low"), wins.get("high"), level
    )


def _decks_over(item: Mapping[str, Any], where: str) -> tuple[Decks, ...]:
    """A claim's list of deck counts (``decks = [1, 2, 4, 6, 8]``), with its ``across``."""
    listed = item["decks"]
    if "across" not in item:
        raise AnalyzerError(
            f"{where}: a list of decks needs 'across': how the figure is taken over them "
            f"({', '.join(ACROSS)})"
        )
    if item["across"] not in ACROSS:
        raise AnalyzerError(
            f"{where}: 'across' must be one of {', '.join(ACROSS)}, got {item['across']!r:.40}"
        )
    if not 2 <= len(listed) <= 27:
        raise AnalyzerError(f"{where}: a list of decks names 2 to 27 deck counts")
    out = []
    for decks in listed:
        try:
            out.append(check_decks(decks, "'decks'"))
        except AnalyzerError as exc:
            raise AnalyzerError(f"{where}: {exc}") from None
    if len(set(out)) != len(out):
        raise AnalyzerError(f"{where}: 'decks' names a deck count twice")
    return tuple(out)


def _counting(item: Mapping[str, Any], where: str) -> CountingSpec:
    statistic = item.get("statistic")
    if statistic is None:
        raise AnalyzerError(
            f"{where}: needs a 'statistic': one of {', '.join(COUNTING_STATISTICS)}"
        )
    if statistic not in COUNTING_STATISTICS:
        raise AnalyzerError(
            f"{where}: a counting claim's 'statistic' must be one of "
            f"{', '.join(COUNTING_STATISTICS)}, got {statistic!r:.40}"
        )
    if not isinstance(item.get("bet"), str):
        raise AnalyzerError(f"{where}: a counting claim needs the 'bet' counted")
    threshold = item.get("threshold")
    if threshold is not None:
        threshold = float(_number(threshold, where, "threshold"))
    cut_card = item.get("cut_card")
    if cut_card is not None:
        whole_number(cut_card, where, "'cut_card' (cards behind the cut card)", 0, 52 * 27)
    shoes = item.get("shoes", DEFAULT_COUNTING_SHOES)
    whole_number(shoes, where, "'shoes'", 100, MAX_COUNTING_SHOES)
    seed = item.get("seed", 1)
    whole_number(seed, where, "'seed'", 0, 2**63 - 1)
    return CountingSpec(
        statistic,
        optional(item, "tags", str, where),
        threshold,
        cut_card,
        optional(item, "last_round", str, where),
        optional(item, "true_count_decks", str, where),
        optional(item, "burn", bool, where),
        shoes,
        seed,
    )


def _claim(
    item: object, number: int, source: str, base: Path | None, top: Mapping[str, Any]
) -> Claim:
    where = f"{source}: claim {number}"
    item = table(item, where, "a claim")
    quantity = item.get("quantity")
    if quantity not in QUANTITIES:
        raise AnalyzerError(
            f"{where}: 'quantity' must be one of {', '.join(QUANTITIES)}, got {quantity!r:.40}"
        )
    if quantity in ("max_rtp", "decks") and ("bet" in item or "mode" in item):
        what = "is the game's best bet" if quantity == "max_rtp" else "is the paytable's shoe"
        raise AnalyzerError(f"{where}: {quantity!r} {what}: it takes no 'bet' or 'mode'")
    check_keys(item, claim_keys(quantity), where)
    paytable = _paytable_named(item, top.get("paytable"), where, base)
    digits = None
    if "digits" in item:
        digits = check_significant(item["digits"], where)
    decks_over: tuple[Decks, ...] = ()
    if isinstance(item.get("decks"), list):
        decks_over = _decks_over(item, where)
    elif "across" in item:
        raise AnalyzerError(
            f"{where}: 'across' takes a figure over several deck counts: give 'decks' a list, "
            "e.g. decks = [1, 2, 4, 6, 8]"
        )
    across = item.get("across")
    value = _check_value(item, quantity, digits, where, across)
    rounding = item.get("rounding", "round")
    if rounding not in ROUNDINGS:
        raise AnalyzerError(f"{where}: 'rounding' must be {' or '.join(ROUNDINGS)}")
    printed = item.get("printed", "decimal")
    if printed not in PRINTED:
        raise AnalyzerError(
            f"{where}: 'printed' must be {' or '.join(map(repr, PRINTED))}, got {printed!r:.40}"
        )
    if printed == "float" and "rounding" in item:
        raise AnalyzerError(
            f'{where}: printed = "float" rounds the double half to even, as a float prints: '
            "it takes no 'rounding'"
        )
    scale = _number(item["scale"], where, "scale", positive=True) if "scale" in item else 1
    bet = item.get("bet")
    if bet is not None and not isinstance(bet, str):
        raise AnalyzerError(f"{where}: 'bet' must be a bet id")
    mode = optional(item, "mode", str, where)
    rule, label = _line(item, where)
    event = _condition(item, "event", where, paytable)
    given = _condition(item, "given", where, paytable)
    over = item.get("over")
    if over is not None and over not in OVER:
        raise AnalyzerError(f"{where}: 'over' must be one of {', '.join(map(repr, OVER))}")
    if quantity in ("count", "probability", "probability_change"):
        if event is None and (quantity == "probability_change" or bet is None):
            raise AnalyzerError(
                f"{where}: quantity {quantity!r} needs an 'event' (a condition)"
                + ("" if quantity == "probability_change" else " or a 'bet' and its 'rule'")
            )
        if event is not None and (bet is not None or rule is not None or label is not None):
            raise AnalyzerError(f"{where}: give an 'event' or a bet's line, not both")
        if event is None and rule is None and label is None:
            raise AnalyzerError(
                f"{where}: quantity {quantity!r} of a bet needs the line: 'rule' (its number) "
                "or 'label'"
            )
        if over is not None and _vocabulary(paytable) is not None:
            raise AnalyzerError(
                f"{where}: 'over' counts punto banco's cards; a count of another game is of "
                "its ordered deals (drop 'over')"
            )
        if over is not None and event is not None:
            unordered(over, event.fields | (given.fields if given else frozenset()), where)
    elif quantity not in ("max_rtp", "session", "decks") and not isinstance(bet, str):
        raise AnalyzerError(f"{where}: quantity {quantity!r} needs a 'bet'")
    if "given" in item and event is None:
        raise AnalyzerError(f"{where}: 'given' needs an 'event'")
    decks = None if decks_over else item.get("decks", top.get("decks"))
    if decks is not None:
        try:
            decks = check_decks(decks, "'decks'")
        except AnalyzerError as exc:
            raise AnalyzerError(f"{where}: {exc}") from None
    shoe_removed = _cards(top["remove"], source, "remove") if "remove" in top else ()
    effect_of: tuple[Card, ...] = ()
    if quantity in ("eor", "probability_change"):
        if "remove" not in item:
            raise AnalyzerError(
                f"{where}: quantity {quantity!r} needs 'remove': the cards whose removal it is "
                'about, e.g. "6" or "6S 6H"'
            )
        effect_of = _cards(item["remove"], where, "remove")
        if not effect_of:
            raise AnalyzerError(f"{where}: 'remove' names no card")
    elif "remove" in item:
        shoe_removed = _cards(item["remove"], where, "remove")
    session = _session(item, where) if quantity == "session" else None
    resolved = _resolved(item, where) if quantity == "resolved" else None
    counting = _counting(item, where) if quantity == "counting" else None
    strategy = None
    if "strategy" in item or "strategy" in top:
        strategy = parse_strategy(item.get("strategy", top.get("strategy")), f"{where}: strategy")
    return Claim(
        number,
        paytable,
        quantity,
        value,
        bet,
        mode,
        rounding,
        optional_note(item, "source", where),
        rule,
        label,
        event,
        given,
        over,
        digits,
        Fraction(scale),
        decks,
        shoe_removed,
        effect_of,
        session,
        counting,
        optional_note(item, "slip", where),
        strategy,
        printed,
        decks_over,
        across,
        resolved,
    )


def claims_from_dict(data: Mapping[str, Any], source: str, base: Path | None) -> list[Claim]:
    """Validate a claims mapping (what ``tomllib`` returns for a claims file)."""
    table(data, source, "a claims file")
    check_untrusted(data, source)
    return _claims_from_parsed(data, source, base)


def _claims_from_parsed(data: Mapping[str, Any], source: str, base: Path | None) -> list[Claim]:
    """:func:`claims_from_dict` of a file's data as :func:`~analyzer.files.read_toml`
    returns it, its nesting and text checked there (not walked again)."""
    table(data, source, "a claims file")
    check_keys(data, [key.name for key in FILE_KEYS], source)
    optional_note(data, "description", source)
    if "decks" in data:
        try:
            check_decks(data["decks"], "'decks'")
        except AnalyzerError as exc:
            raise AnalyzerError(f"{source}: {exc}") from None
    items = data.get("claim")
    if not isinstance(items, list) or not items:
        raise AnalyzerError(f"{source}: needs at least one [[claim]]")
    return [_claim(item, number, source, base, data) for number, item in enumerate(items, 1)]


def load_claims(spec: str | Path) -> list[Claim]:
    """A claims file, or a shipped claims file by name (``seed-game``)."""
    if not is_path(spec):
        shipped = shipped_claims(str(spec))
        if shipped is None:
            raise AnalyzerError(
                f"unknown claims {str(spec)!r}: give a .toml file or one of "
                f"{', '.join(claims_names())}"
            )
        return _claims_from_parsed(read_toml(shipped, keep=True), str(spec), None)
    path = Path(spec)
    return _claims_from_parsed(read_toml(path), str(path), path.parent)


def published_max_rtp(paytable: Paytable) -> str | None:
    """The maximum RTP that the shipped claims file of a shipped paytable states about its
    own full shoe, if any."""
    if shipped_claims(paytable.source) is None:
        return None
    for claim in load_claims(paytable.source):
        if claim.quantity == "max_rtp" and claim.paytable == paytable.source and claim.full_shoe:
            return str(claim.value)
    return None
