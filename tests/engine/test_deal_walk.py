"""The deal walk (games without drawing) against plain-Python deals of physical cards.

Every test compares an exact figure of :func:`analyzer.analyze` (or the walk's table)
with :mod:`tests.naive_family`, which deals every ordered sequence of a shoe's cards one
by one and settles each bet by a hand-written function: full one-deck shoes for Dragon
Tiger, tiny shoes (exhausted ranks, repeated cards) for Three Card Baccarat, shoes
depleted by hypothesis, and the infinite deck.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import analyze
from analyzer.analysis.bets import evaluate_bet
from analyzer.engine.deal_walk import (
    MAX_SEQUENCES,
    _by_sequences,
    _Walk,
    check_deal_walk,
    dealt_outcomes,
    dealt_tables,
    sequences_bound,
)
from analyzer.errors import AnalyzerError
from analyzer.game.cards import RANKS, SUITS
from analyzer.game.games import named_game
from analyzer.game.shoe import Shoe
from analyzer.paytables.library import library_names, load_paytable
from tests import naive_family as naive

HALF = Fraction(1, 2)


def shoe_of(cards: list[str], replacement: bool = False) -> Shoe:
    """The analyser's shoe holding exactly ``cards`` (naive card strings)."""
    suits = np.zeros((len(RANKS), len(SUITS)), dtype=np.int64)
    for card in cards:
        suits[RANKS.index(naive.rank(card)), SUITS.index(naive.suit(card))] += 1
    return Shoe(suits.sum(axis=1), suits, replacement)


# -- Dragon Tiger: each shipped bet, settled by hand --------------------------------------


def _main(hand: str):
    def net(dealt):
        winner = naive.dragon_tiger_winner(*dealt)
        return 1 if winner == hand else -HALF if winner == "tie" else -1

    return net


def _one_card(hand: str, wins, pays=1):
    index = 0 if hand == "dragon" else 1
    return lambda dealt: pays if wins(dealt[index]) else -1


def _tie(pays):
    return lambda dealt: pays if naive.rank(dealt[0]) == naive.rank(dealt[1]) else -1


def _suited_tie(dealt):
    return 50 if dealt[0] == dealt[1] else -1


def _red(card):
    return naive.suit(card) in "HD"


DRAGON_TIGER_BETS = {
    "dragon-tiger": {
        "dragon": _main("dragon"),
        "tiger": _main("tiger"),
        "tie": _tie(8),
        "suited_tie": _suited_tie,
        "dragon_big": _one_card("dragon", lambda c: naive.rank_number(c) >= 8),
        "tiger_small": _one_card("tiger", lambda c: naive.rank_number(c) <= 6),
    },
    "dragon-tiger-pragmatic": {
        "tie": _tie(11),
        "dragon_odd": _one_card("dragon", lambda c: naive.rank_number(c) in (1, 3, 5, 9, 11, 13)),
        "tiger_even": _one_card("tiger", lambda c: naive.rank_number(c) % 2 == 0),
        "dragon_red": _one_card("dragon", lambda c: _red(c) and naive.rank(c) != "7"),
        "tiger_black": _one_card("tiger", lambda c: not _red(c) and naive.rank(c) != "7"),
    },
    "dragon-tiger-sa-gaming": {
        "dragon_odd": _one_card("dragon", lambda c: naive.rank_number(c) % 2 == 1, Fraction(3, 4)),
        "tiger_even": _one_card("tiger", lambda c: naive.rank_number(c) % 2 == 0, Fraction(21, 20)),
        "dragon_red": _one_card("dragon", _red, Fraction(9, 10)),
    },
}


def _check_dragon_tiger(cards: list[str], replacement: bool = False) -> None:
    shoe = shoe_of(cards, replacement)
    for name, bets in DRAGON_TIGER_BETS.items():
        analysis = analyze(paytable=name, shoe=shoe, bets=list(bets))
        for bet, net in bets.items():
            expected = naive.expected_net(cards, 2, net, replacement)
            assert analysis.result(bet).expected_value == expected, (name, bet)


def test_dragon_tiger_bets_on_a_full_deck_equal_every_deal():
    _check_dragon_tiger(naive.deck(1))


def test_dragon_tiger_bets_on_the_infinite_deck_equal_every_deal_with_replacement():
    _check_dragon_tiger(naive.deck(1), replacement=True)


@pytest.mark.kernels
def test_dragon_tiger_on_two_decks_counts_every_winner_and_score():
    """The outcome table's rows, not only the bets: every (winner, scores) of two decks."""
    cards = naive.deck(2)
    table = dealt_outcomes(named_game("dragon-tiger"), shoe_of(cards), frozenset())
    got: Counter = Counter()
    for winner, dragon, tiger, ways in zip(
        table.columns["winner"],
        table.columns["dragon_score"],
        table.columns["tiger_score"],
        table.ways,
        strict=True,
    ):
        got[(str(winner), int(dragon), int(tiger))] += int(ways)
    expected = naive.outcome_counts(
        cards,
        2,
        lambda d: (
            naive.dragon_tiger_winner(*d),
            naive.rank_number(d[0]),
            naive.rank_number(d[1]),
        ),
    )
    assert got == expected
    assert table.denominator == len(cards) * (len(cards) - 1) == int(table.ways.sum())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(naive.deck(1)), min_size=6, max_size=40, unique=True))
def test_dragon_tiger_on_depleted_shoes_equals_every_deal(cards):
    _check_dragon_tiger(cards)


def _summed(table, names) -> Counter:
    """The ways of ``table`` summed per value of the fields ``names``."""
    got: Counter = Counter()
    columns = [table.columns[name].tolist() for name in names]
    for row, ways in enumerate(table.ways.tolist()):
        got[tuple(column[row] for column in columns)] += ways
    return got


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(naive.deck(2)), min_size=6, max_size=60))
def test_each_table_of_one_walk_is_the_full_table_summed_over_the_other_fields(cards):
    """dealt_tables: one walk, a table per set of fields holding only those fields, each
    row's ways the sum of the full table's rows with its values (none left out)."""
    game = load_paytable("dragon-tiger-pragmatic").game
    sets = [
        frozenset({"dragon_score"}),
        frozenset({"tiger_card1_colour", "tiger_card1_rank"}),
        frozenset({"winner", "dragon_card1_suit", "tiger_card1_suit"}),
        frozenset(),
    ]
    shoe = shoe_of(cards)
    full = dealt_outcomes(game, shoe, frozenset().union(*sets))
    for fields, table in dealt_tables(game, shoe, sets).items():
        names = sorted(fields)
        assert sorted(table.columns) == names
        assert table.denominator == full.denominator == int(table.ways.sum())
        assert all(table.ways > 0)
        summed = _summed(table, names)
        assert len(summed) == len(table)  # (a row per value)
        assert summed == _summed(full, names)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(naive.deck(2)), min_size=6, max_size=60),
    st.lists(st.sampled_from(naive.deck(2)), min_size=0, max_size=30),
    st.booleans(),
)
def test_the_walk_by_sequences_weighs_each_sequence_as_the_odometer_does(cards, more, replacement):
    """A walk over sequences of cards keeps its sequences per layout (each class's count
    up to a round's cards) and weighs each in closed form: the same rows and ways as the
    odometer's walk (the kernel), on a shoe and on a fuller one of the same layout."""
    game = load_paytable("dragon-tiger-pragmatic").game
    for fields in (frozenset({"dragon_card1_suit", "winner"}), frozenset({"tiger_card1_rank"})):
        suits = game.needs_suits(fields)
        for shoe in (shoe_of(cards, replacement), shoe_of(cards + cards + more, replacement)):
            walk = _Walk.of(game, shoe, fields)
            ranks, suit_index, ways = _by_sequences(game, shoe, suits)
            assert np.array_equal(walk.ways, ways)
            assert walk.denominator == shoe.sequences(game.cards) == sum(ways.tolist())
            table = dealt_outcomes(game, shoe, fields)
            for name in sorted(fields):  # (the rows' fields: those of the odometer's rows)
                codes, texts = game.columns(ranks, suit_index, fields)[name]
                got = _summed(table, [name])
                want: Counter = Counter()
                for code, count in zip(codes.tolist(), ways.tolist(), strict=True):
                    want[(code if texts is None else texts[code],)] += count
                assert got == want


@pytest.mark.parametrize(
    "name",
    [
        "dragon-tiger",
        "dragon-tiger-evolution",
        "dragon-tiger-pragmatic",
        "dragon-tiger-sa-gaming",
        "lightning-dragon-tiger",
    ],
)
@pytest.mark.parametrize("decks", [1, 8])
def test_each_bet_settled_on_its_own_fields_is_settled_as_on_the_full_table(name, decks):
    """The analysis settles each bet on a table of the fields it reads, masks shared
    between bets: every line (ways, matched ways, denominator) as evaluate_bet makes it on
    the full table of every field, each bet alone."""
    paytable = load_paytable(name)
    if paytable.unknowns:
        paytable = paytable.with_unknowns({u: Fraction(1, 8) for u, _, _ in paytable.unknowns})
    shoe = Shoe.standard(decks)
    analysis = analyze(paytable=paytable, shoe=shoe)
    fields = frozenset().union(*(bet.fields for bet in paytable.bets))
    full = dealt_outcomes(paytable.game, shoe, fields)
    assert len(analysis.results) == len(paytable.bets)
    for result in analysis.results:
        alone = evaluate_bet(full, result.bet, result.mode)
        assert result.lines == alone.lines, result.bet.id
        assert result.sums == alone.sums, result.bet.id


def test_overlapping_rules_settle_each_round_by_the_first_that_holds():
    """Rules whose conditions overlap (a later one holds where an earlier did), sharing
    conditions between bets: each round settled by its first rule, as evaluate_bet and
    every deal of a deck settle it; the matched ways count earlier rules' rounds too."""
    from analyzer.paytables.model import paytable_from_dict

    high = "dragon_score >= 11"
    data = {
        "name": "Overlapping",
        "game": "dragon-tiger",
        "decks": 1,
        "bet": [
            {
                "id": "ladder",
                "rule": [
                    {"when": high, "pays": "3:1"},
                    {"when": "dragon_score >= 8", "pays": "1:1"},
                    {"when": "dragon_score >= 2 or winner == 'tie'", "pays": "push"},
                ],
            },
            {
                "id": "high_tie",
                "rule": [
                    {"when": "winner == 'tie'", "pays": "10:1"},
                    {"when": high, "pays": "1:2"},
                ],
            },
        ],
    }
    paytable = paytable_from_dict(data, "o.toml")
    cards = naive.deck(1)
    analysis = analyze(paytable=paytable, shoe=shoe_of(cards))
    full = dealt_outcomes(paytable.game, shoe_of(cards), frozenset({"winner", "dragon_score"}))

    def ladder(dealt):
        score = naive.rank_number(dealt[0])
        tie = naive.dragon_tiger_winner(*dealt) == "tie"
        return 3 if score >= 11 else 1 if score >= 8 else 0 if score >= 2 or tie else -1

    def high_tie(dealt):
        if naive.dragon_tiger_winner(*dealt) == "tie":
            return 10
        return HALF if naive.rank_number(dealt[0]) >= 11 else -1

    for bet, net in (("ladder", ladder), ("high_tie", high_tie)):
        result = analysis.result(bet)
        assert result.expected_value == naive.expected_net(cards, 2, net), bet
        assert result.lines == evaluate_bet(full, result.bet, result.mode).lines, bet
    # Dragon's card of 52: 12 J, Q, K; 12 8, 9, 10; 24 from 2 to 7; an ace pushes on a tie
    # only (another of the 3 aces left), else no rule holds.
    ladder_lines = analysis.result("ladder").lines
    assert [line.ways for line in ladder_lines] == [
        12 * 51,
        12 * 51,
        24 * 51 + 4 * 3,
        4 * 51 - 4 * 3,
    ]
    assert [line.matched for line in ladder_lines[:3]] == [12 * 51, 24 * 51, 48 * 51 + 4 * 3]


# -- Three Card Baccarat ----------------------------------------------------------------


def _three_card_bets():
    def main(hand):
        def net(dealt):
            winner = naive.three_card_winner(dealt[:3], dealt[3:])
            return Fraction(19, 20) if winner == hand else 0 if winner == "tie" else -1

        return net

    def tie(dealt):
        return 20 if naive.three_card_winner(dealt[:3], dealt[3:]) == "tie" else -1

    def three_faces(dealt):
        return 16 if all(naive.rank(c) in naive.PICTURES for c in dealt[3:]) else -1

    def total(k):
        return lambda dealt: 8 if naive.points(dealt[3:]) == k else -1

    return {
        "player": main("player"),
        "dealer": main("dealer"),
        "tie": tie,
        "three_faces": three_faces,
        "dealer_total_0": total(0),
        "dealer_total_7": total(7),
    }


TINY_THREE_CARD_SHOES = [
    # pictures only but one: three-picture hands meet, ties among them
    ["JS", "QS", "KS", "JH", "QH", "KH", "9D", "AC"],
    # repeated cards (two decks' worth of some), exhausted ranks, tens and pictures at 0
    ["KS", "KS", "QH", "10D", "5C", "5C", "4H", "AS", "9S"],
    ["2S", "3H", "4D", "5C", "6S", "7H", "8D", "JC", "QS"],
]


@pytest.mark.parametrize("cards", TINY_THREE_CARD_SHOES)
def test_three_card_baccarat_on_tiny_shoes_equals_every_deal(cards):
    shoe = shoe_of(cards)
    bets = _three_card_bets()
    analysis = analyze(paytable="three-card-baccarat", shoe=shoe, bets=list(bets))
    for bet, net in bets.items():
        assert analysis.result(bet).expected_value == naive.expected_net(cards, 6, net), bet


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(naive.deck(1)), min_size=6, max_size=8, unique=True))
def test_three_card_baccarat_on_depleted_shoes_equals_every_deal(cards):
    shoe = shoe_of(cards)
    bets = _three_card_bets()
    analysis = analyze(paytable="three-card-baccarat", shoe=shoe, bets=list(bets))
    for bet, net in bets.items():
        assert analysis.result(bet).expected_value == naive.expected_net(cards, 6, net), bet


def test_three_card_baccarat_dealer_totals_as_the_wizard_counts_them():
    """Wizard of Odds, "Three Card Baccarat" (mirror http://user-casino.com/games/
    three-card-baccarat/): of the C(52,3) = 22,100 three-card hands, 2,384 total 0 and
    2,212 total 1; 220 = C(12,3) are three picture cards (Wizard of Macau's Three Faces)."""
    analysis = analyze(paytable="three-card-baccarat")
    for bet, hands in (("dealer_total_0", 2384), ("dealer_total_1", 2212), ("three_faces", 220)):
        assert analysis.result(bet).hit_frequency == Fraction(hands, 22100)


def test_dragon_tiger_closed_forms_from_the_wizard_counts():
    """Wizard of Odds, "Dragon Tiger" (mirror http://user-casino.com/games/dragon-tiger/),
    8 decks: of 86,320 = C(416, 2) pairs, 6,448 = 13 C(32, 2) tie and 1,456 = 52 C(8, 2)
    are suited ties; the Dragon wins half the rest."""
    analysis = analyze(paytable="dragon-tiger")
    tie, suited = Fraction(6448, 86320), Fraction(1456, 86320)
    win = (1 - tie) / 2
    assert analysis.result("dragon").expected_value == win - (1 - tie) / 2 - tie / 2
    assert analysis.result("tie").expected_value == 9 * tie - 1
    assert analysis.result("suited_tie").expected_value == 51 * suited - 1


# -- budget, shoes and suits ------------------------------------------------------------


@pytest.mark.kernels
def test_three_card_baccarat_by_suit_is_refused_before_the_walk():
    game = named_game("three-card-baccarat")
    with pytest.raises(AnalyzerError, match="over the budget") as caught:
        dealt_outcomes(game, Shoe.standard(1), frozenset({"player_card1_suit"}))
    assert f"{MAX_SEQUENCES:,}" in str(caught.value)


def test_bets_on_suits_are_unavailable_where_suits_are_unknown():
    shoe = Shoe(Shoe.standard(8).rank_counts)  # ranks only: suits unknown
    analysis = analyze(paytable="dragon-tiger", shoe=shoe)
    assert ("suited_tie", "standard") in {(bet, mode) for bet, mode, _ in analysis.unavailable}
    assert (
        analysis.result("tie").expected_value
        == analyze(paytable="dragon-tiger").result("tie").expected_value
    )


def test_every_shipped_game_paytable_is_within_the_walks_budget():
    games = [load_paytable(name) for name in library_names()]
    games = [paytable for paytable in games if paytable.game is not None]
    assert len(games) >= 5
    for paytable in games:
        fields = frozenset().union(*(bet.fields for bet in paytable.bets))
        suits = paytable.game.needs_suits(fields)
        shoe = Shoe.standard(paytable.decks)
        if paytable.game.draws:  # walked by point values, every card a round may take
            assert 10**paytable.game.most_cards <= MAX_SEQUENCES, paytable.name
        else:
            check_deal_walk(paytable.game, shoe, fields)  # (no error: within the budget)
            assert sequences_bound(paytable.game, shoe, suits) <= MAX_SEQUENCES or not any(
                paytable.game.vocabulary[name].card_level for name in fields
            )


@pytest.mark.kernels
def test_the_walk_by_hands_on_the_infinite_deck_equals_every_deal_with_replacement():
    """Bets that look at no single card take the walk over pairs of hands (multisets of
    ranks); on the infinite deck their ways are powers, not falling products."""
    cards = naive.deck(1)
    bets = {name: DRAGON_TIGER_BETS["dragon-tiger"][name] for name in ("dragon", "tie")}
    analysis = analyze(paytable="dragon-tiger", shoe=shoe_of(cards, True), bets=list(bets))
    for bet, net in bets.items():
        assert analysis.result(bet).expected_value == naive.expected_net(cards, 2, net, True)


@pytest.mark.kernels
@pytest.mark.parametrize("cards", TINY_THREE_CARD_SHOES)
def test_a_bet_on_one_card_takes_the_walk_by_sequences_and_agrees(cards):
    """A bet on the Player's first card needs the cards by position: the sequence walk,
    whose other figures must equal the walk by hands'."""
    from analyzer.paytables.model import paytable_from_dict

    data = {
        "name": "First king",
        "game": "three-card-baccarat",
        "decks": 1,
        "bet": [
            {
                "id": "first_king",
                "rule": [
                    {"when": "player_card1_rank == 'K' and winner == 'player'", "pays": "3:1"}
                ],
            },
            {"id": "tie", "rule": [{"when": "winner == 'tie'", "pays": "20:1"}]},
        ],
    }
    paytable = paytable_from_dict(data, "k.toml")
    analysis = analyze(paytable=paytable, shoe=shoe_of(cards))

    def first_king(dealt):
        wins = naive.three_card_winner(dealt[:3], dealt[3:]) == "player"
        return 3 if wins and naive.rank(dealt[0]) == "K" else -1

    assert analysis.result("first_king").expected_value == naive.expected_net(cards, 6, first_king)
    by_hands = analyze(paytable="three-card-baccarat", shoe=shoe_of(cards), bets=["tie"])
    assert analysis.result("tie").expected_value == by_hands.result("tie").expected_value


@pytest.mark.kernels
def test_a_bet_over_the_budget_is_unavailable_and_the_others_priced():
    """A bet on single cards of Three Card Baccarat (13^6 sequences) is over the walk's
    budget: unavailable, with why, while the bets on the hands are priced as alone."""
    from analyzer.paytables.model import paytable_from_dict

    data = {
        "name": "Three Card with a first-card bet",
        "game": "three-card-baccarat",
        "decks": 1,
        "bet": [
            {"id": "tie", "rule": [{"when": "winner == 'tie'", "pays": "20:1"}]},
            {"id": "first_king", "rule": [{"when": "player_card1_rank == 'K'", "pays": "12:1"}]},
        ],
    }
    analysis = analyze(paytable=paytable_from_dict(data, "k.toml"))
    (bet, _, why), *_ = analysis.unavailable
    assert bet == "first_king" and "over the budget" in why and "\n" not in why
    alone = analyze(paytable="three-card-baccarat", bets=["tie"]).result("tie")
    assert analysis.result("tie").expected_value == alone.expected_value


def test_a_game_on_the_infinite_deck_is_counted_in_its_lowest_terms():
    """Dragon Tiger's tie on the infinite deck: 13 of 169 sequences by rank (one card of
    each rank), as punto banco's bets are stated, not 208 of 2,704."""
    result = analyze(paytable="dragon-tiger", decks="inf", bets=["tie"]).result("tie")
    assert result.lines[0].ways == 13 and result.lines[0].over == 169


# -- Punto banco by its first four cards (a decision after them: Peek Baccarat) -----------


@pytest.mark.kernels
@pytest.mark.parametrize("replacement", [False, True])
@pytest.mark.parametrize("scores", [False, True])
def test_punto_banco_cells_equal_every_deal_of_a_tiny_shoe(replacement, scores):
    from analyzer.engine.deal_walk import punto_banco_cells
    from analyzer.game.rules import named_rules
    from tests import naive as punto

    cards = ["AS", "5H", "KD", "9C", "6S", "3H", "2D"] if not replacement else ["AS", "5H", "KD"]
    shoe = shoe_of(cards, replacement)
    cells = punto_banco_cells(shoe, named_rules("standard").tableau().third_card, scores)
    expected = np.zeros_like(cells)
    for dealt in naive.every_deal(cards, 6, replacement):
        values = [naive.value(card) for card in dealt]
        player, banker, *_ = punto.play(values[:4], values[4:])
        winner = 0 if player > banker else 1 if banker > player else 2
        at = (*values[:4], winner, player if scores else 0, banker if scores else 0)
        expected[at] += 1
    assert np.array_equal(cells, expected)
    assert cells.sum() == shoe.sequences(6)


# -- The best action of each information set: the kernels against plain Python -----------


def _plain_best(sums, reads, nets, stakes, fold_nets, folds):
    """Each set's ways, each action's net and the first best action, by hand."""
    n_sets = len(sums[0][0])
    ways = [sum(rule[s] for rule in sums[reads[0]]) for s in range(n_sets)]
    value, best = [], []
    for s in range(n_sets):
        nets_of = [
            ways[s] * fold_nets[a]
            if folds[a]
            else stakes[a]
            * sum(n * row[s] for n, row in zip(nets[reads[a]], sums[reads[a]], strict=True))
            for a in range(len(stakes))
        ]
        value.append(nets_of)
        best.append(nets_of.index(max(nets_of)))
    return ways, [list(column) for column in zip(*value, strict=True)], best


@st.composite
def _decisions(draw):
    n_rules = draw(st.integers(1, 4))
    n_sets = draw(st.integers(1, 9))
    n_kinds = draw(st.integers(1, 3))
    n_actions = draw(st.integers(1, 4))
    ways = st.integers(0, 5)
    sums = [[[draw(ways) for _ in range(n_sets)] for _ in range(n_rules)] for _ in range(n_kinds)]
    reads = [draw(st.integers(0, n_kinds - 1)) for _ in range(n_actions)]
    nets = [[draw(st.integers(-3, 3)) for _ in range(n_rules)] for _ in range(n_kinds)]
    stakes = [draw(st.integers(1, 3)) for _ in range(n_actions)]
    folds = [draw(st.booleans()) for _ in range(n_actions)]
    fold_nets = [draw(st.integers(-2, 0)) for _ in range(n_actions)]
    cuts = sorted(draw(st.lists(st.integers(0, n_sets), max_size=3)))
    return sums, reads, nets, stakes, fold_nets, folds, [0, *cuts, n_sets]


@pytest.mark.kernels
@settings(max_examples=60, deadline=None)
@given(_decisions(), st.randoms(use_true_random=False))
def test_the_best_actions_and_the_ways_played_equal_plain_python(decision, random):
    """Ties (small integers: many) keep the first action listed; a fold's sets' ways go to
    its first column; a set counts in its reveal only."""
    from analyzer.engine.deal_walk import best_actions, played_ways

    sums, reads, nets, stakes, fold_nets, folds, bounds = decision
    arrays = [np.array(x) for x in (sums, reads, nets, stakes, fold_nets)]
    ways, value, best = best_actions(*arrays, np.array(folds))
    assert (ways.tolist(), value.tolist(), best.tolist()) == _plain_best(
        sums, reads, nets, stakes, fold_nets, folds
    )
    played = [random.randrange(len(stakes)) for _ in ways]
    taken = played_ways(
        arrays[0], arrays[1], np.array(folds), ways, np.array(played), np.array(bounds)
    )
    expected = np.zeros((len(bounds) - 1, len(stakes), len(sums[0])), dtype=np.int64)
    for v in range(len(bounds) - 1):
        for s in range(bounds[v], bounds[v + 1]):
            a = played[s]
            if folds[a]:
                expected[v, a, 0] += ways[s]
            else:
                expected[v, a] += [rule[s] for rule in sums[reads[a]]]
    assert taken.tolist() == expected.tolist()


@pytest.mark.parametrize(
    "change",
    [
        {"nets": np.array([1, -1])},
        {"reads": np.array([0, 1])},
        {"stakes": np.array([], dtype=np.int64)},
        {"sums": np.zeros((2, 2))},
    ],
)
def test_best_actions_refuses_arrays_that_disagree(change):
    from analyzer.engine.deal_walk import best_actions

    arguments = {
        "sums": np.zeros((1, 2, 3), dtype=np.int64),
        "reads": np.array([0, 0]),
        "nets": np.array([[1, -1]]),
        "stakes": np.array([1, 2]),
        "fold_nets": np.zeros(2, dtype=np.int64),
        "folds": np.zeros(2, dtype=bool),
    } | change
    with pytest.raises(ValueError, match="disagree"):
        best_actions(**arguments)


@pytest.mark.parametrize(
    "change",
    [{"bounds": np.array([0, 2])}, {"played": np.array([0, 2, 0])}, {"ways": np.zeros(2)}],
)
def test_played_ways_refuses_arrays_that_disagree(change):
    from analyzer.engine.deal_walk import played_ways

    arguments = {
        "sums": np.zeros((1, 2, 3), dtype=np.int64),
        "reads": np.array([0, 0]),
        "folds": np.zeros(2, dtype=bool),
        "ways": np.zeros(3, dtype=np.int64),
        "played": np.array([0, 1, 0]),
        "bounds": np.array([0, 1, 3]),
    } | change
    with pytest.raises(ValueError, match="disagree"):
        played_ways(**arguments)


def test_drawn_cells_leaves_single_cards_to_the_walk_by_classes():
    from analyzer.engine.deal_walk import drawn_cells

    lucky = named_game("lucky-draw-baccarat")
    with pytest.raises(AnalyzerError, match="single cards"):
        drawn_cells(lucky, Shoe.standard(1), frozenset({"player_card1_rank"}), (None,))


@pytest.mark.kernels
@pytest.mark.parametrize("replacement", [False, True])
def test_a_third_card_added_by_how_it_compares_equals_it_added_by_value(replacement):
    """Lucky Draw's dealer card after the deal, where no bet reads the dealer's score, is
    added by how its total compares (the kernel's shortcut): the same ways as the walk
    that tells the dealer's score apart, summed over it."""
    from analyzer.engine.deal_walk import INFORMATION, drawn_tables

    lucky = named_game("lucky-draw-baccarat")
    cards = ["AS", "5H", "KD", "9C", "6S", "3H", "2D", "5C"] if not replacement else ["AS", "5H"]
    shoe = shoe_of(cards, replacement)
    short = frozenset({"winner", "player_score", "player_cards"})
    actions = lucky.decision.actions
    by_winner = drawn_tables(lucky, shoe, short, actions)
    by_score = drawn_tables(lucky, shoe, short | {"dealer_score"}, actions)
    keys = [INFORMATION, *sorted(short)]
    for action in actions:
        totals: Counter = Counter()
        for table, sign in ((by_winner[action], 1), (by_score[action], -1)):
            for i, ways in enumerate(table.ways.tolist()):
                totals[tuple(table.columns[name][i] for name in keys)] += sign * ways
        assert not any(totals.values())
        assert by_winner[action].ways.sum() == shoe.sequences(lucky.most_cards)
