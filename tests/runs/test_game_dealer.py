"""Shoes of another game of the family dealt as a live table deals them: against a
plain-Python deal of the same shuffled shoes, a card at a time (tests/naive_family.py)."""

from __future__ import annotations

from collections import Counter

import naive_family as nf
import numpy as np
import pytest

from analyzer import load_paytable
from analyzer.runs.dealer import Procedure, deal_shoes
from analyzer.runs.game_dealer import deal_game_shoes, round_fields, rounds_dealt
from analyzer.runs.runner import partition_rng


def plain_shoes(seed: int, index: int, shoes: int, procedure: Procedure, game) -> list:
    """A partition's shuffled shoes (the dealer's own shuffle: the random numbers), as
    lists of card names for the plain deal."""
    dealt = deal_game_shoes(partition_rng(seed, index), shoes, procedure, game)
    return [[nf.card_name(int(c)) for c in row] for row in dealt.cards]


@pytest.mark.parametrize("last_round", ["cut-card", "one-more"])
@pytest.mark.parametrize(("decks", "cut_card"), [(1, 14), (1, 9), (8, 14)])
def test_a_partition_deals_the_shoes_cards_in_order(decks, cut_card, last_round) -> None:
    """Dragon Tiger: the rounds of a partition are its shuffled shoes' cards in order,
    dealt as a live table deals them (a plain-Python deal of the same shoes, card by
    card): the same (Dragon rank, Tiger rank) round after round, so the same tally, the
    same suits, rounds and round numbers."""
    game = load_paytable("dragon-tiger").game
    procedure = Procedure(decks, cut_card, last_round=last_round)
    seed, index, shoes = 5, 3, 40 if decks == 1 else 4
    plain = [
        nf.live_rounds(shoe, 2, cut_card, last_round == "one-more")
        for shoe in plain_shoes(seed, index, shoes, procedure, game)
    ]
    dealt = deal_game_shoes(partition_rng(seed, index), shoes, procedure, game)
    rounds = dealt.rounds()
    columns = round_fields(game, rounds, frozenset({"dragon_card1_suit"}))
    ranks = list(
        zip(columns["dragon_score"].tolist(), columns["tiger_score"].tolist(), strict=True)
    )
    expected = [(nf.rank_number(d), nf.rank_number(t)) for shoe in plain for d, t in shoe]
    assert ranks == expected
    assert Counter(ranks) == Counter(expected)
    assert columns["dragon_card1_suit"].tolist() == [d[-1] for shoe in plain for d, _ in shoe]
    assert dealt.n_rounds.tolist() == [len(shoe) for shoe in plain]
    assert rounds.number.tolist() == [n for shoe in plain for n in range(1, len(shoe) + 1)]
    assert rounds.shoe.tolist() == [i for i, shoe in enumerate(plain) for _ in shoe]


def test_the_shoes_are_punto_bancos_shuffled_from_the_same_numbers() -> None:
    """Each shoe holds every card of its decks once per deck, shuffled as punto banco's
    dealer shuffles from the same random numbers (a seed deals the same shoes)."""
    game = load_paytable("dragon-tiger").game
    procedure = Procedure(2, 14)
    dealt = deal_game_shoes(partition_rng(8, 1), 3, procedure, game)
    for row in dealt.cards:
        assert Counter(row.tolist()) == Counter({card: 2 for card in range(52)})
    np.testing.assert_array_equal(dealt.cards, deal_shoes(partition_rng(8, 1), 3, procedure).cards)


def test_three_card_rounds_go_to_the_hands_in_turn() -> None:
    """Three Card Baccarat: each round's six cards, the Player's three then the
    Dealer's, scored and compared as the plain rules say."""
    game = load_paytable("three-card-baccarat").game
    procedure = Procedure(1, 14)
    plain = [nf.live_rounds(shoe, 6, 14) for shoe in plain_shoes(2, 0, 30, procedure, game)]
    rounds = deal_game_shoes(partition_rng(2, 0), 30, procedure, game).rounds()
    columns = round_fields(game, rounds, frozenset())
    hands = [(r[:3], r[3:]) for shoe in plain for r in shoe]
    assert len(hands) == len(rounds) > 100
    assert columns["player_score"].tolist() == [nf.points(p) for p, _ in hands]
    assert columns["dealer_score"].tolist() == [nf.points(d) for _, d in hands]
    pictures = [sum(nf.rank(c) in nf.PICTURES for c in d) for _, d in hands]
    assert columns["dealer_pictures"].tolist() == pictures
    assert columns["winner"].tolist() == [nf.three_card_winner(p, d) for p, d in hands]


@pytest.mark.parametrize("last_round", ["cut-card", "one-more"])
def test_rounds_dealt_by_the_cut_card_rule(last_round) -> None:
    """Every start a burn allows, and the end of the shoe: the plain deal's count."""
    for per_round, decks, cut_card in [(2, 1, 14), (6, 1, 6), (6, 1, 35), (3, 2, 20)]:
        procedure = Procedure(decks, cut_card, last_round=last_round)
        for shown in range(13):  # a shown card of each rank: burns 1 to 10 more
            shoe = [nf.RANK_ORDER[shown] + "S"] + ["2S"] * (52 * decks - 1)
            plain = nf.live_rounds(shoe, per_round, cut_card, last_round == "one-more")
            start = 1 + (nf.points((shoe[0],)) or 10)
            assert rounds_dealt(np.array([start]), procedure, per_round).tolist() == [len(plain)]
