"""Dealing shoes by the procedure of GAME.md."""

from __future__ import annotations

import naive
import numpy as np
import pytest

from analyzer import AnalyzerError, deal_round
from analyzer.game.cards import Card
from analyzer.game.rules import parse_strategy, rules_from_table
from analyzer.runs.dealer import (
    Drawing,
    Procedure,
    compositions_at,
    deal_shoe,
    deal_shoes,
    first_round_start,
    round_columns,
    shuffled_shoe,
)


@pytest.mark.kernels
def test_dealing_follows_the_procedure() -> None:
    procedure = Procedure()
    for seed in range(20):
        cards = shuffled_shoe(np.random.default_rng(seed), 8)
        assert np.array_equal(cards, shuffled_shoe(np.random.default_rng(seed), 8))
        rounds = deal_shoe(cards, procedure)
        shown_value = [10, 1, 2, 3, 4, 5, 6, 7, 8, 9][Card(int(cards[0]) // 4).value]
        assert rounds["start"][0] == first_round_start(cards, procedure) == 1 + shown_value
        assert list(rounds["round"]) == list(range(1, len(rounds) + 1))
        ends = rounds["start"] + rounds["cards"]
        assert np.array_equal(rounds["start"][1:], ends[:-1])  # rounds follow one another
        cut = procedure.cards - procedure.cut_card
        assert ends[-1] > cut and (ends[:-1] <= cut).all()  # the cut card closes the shoe
        for record in rounds[::7]:
            start, used = record["start"], record["cards"]
            dealt = deal_round([Card(int(c) // 4, int(c) % 4) for c in cards[start : start + used]])
            assert (dealt.player_score, dealt.banker_score) == (
                record["player_score"],
                record["banker_score"],
            )
            thirds = [
                c[2].value if len(c) > 2 else -1 for c in (dealt.player_cards, dealt.banker_cards)
            ]
            assert thirds == [record["player_third"], record["banker_third"]]


@pytest.mark.kernels
@pytest.mark.parametrize("cut_card", [6, 14, 16])
def test_one_more_round_after_the_cut_card(cut_card) -> None:
    """The one-more rule deals the cut-card rules shoe, then one round more, except when
    the cut card came out in place of the last round's first card."""
    plain = Procedure(8, cut_card)
    one_more = Procedure(8, cut_card, last_round="one-more")
    seen_exception = seen_extra = False
    for seed in range(60):
        cards = shuffled_shoe(np.random.default_rng(seed), 8)
        rounds, more = deal_shoe(cards, plain), deal_shoe(cards, one_more)
        cut = plain.cards - plain.cut_card
        assert np.array_equal(more[: len(rounds)], rounds)  # the same rounds up to then
        if rounds["start"][-1] == cut:  # the cut card came instead of a first card
            assert len(more) == len(rounds)
            seen_exception = True
        elif rounds["start"][-1] + rounds["cards"][-1] + 6 <= len(cards):
            assert len(more) == len(rounds) + 1
            assert more["start"][-1] == rounds["start"][-1] + rounds["cards"][-1]
            seen_extra = True
        else:  # fewer than six cards left for one more round
            assert len(more) == len(rounds)
    # Behind a cut card of 6 no round can follow the one the cut card came out in.
    assert (seen_extra and seen_exception) or cut_card == 6


@pytest.mark.kernels
def test_procedure_checks_the_cut_card_and_the_last_round_rule() -> None:
    with pytest.raises(AnalyzerError, match=r"^unknown last-round rule 'two-more'"):
        Procedure(8, 14, last_round="two-more")
    with pytest.raises(AnalyzerError, match=r"^cut card must leave 6 to 399 cards behind it"):
        Procedure(8, 3)


@pytest.mark.kernels
@pytest.mark.parametrize(("decks", "cut_card"), [(1, 6), (2, 14), (8, 14)])
def test_round_records_and_columns_follow_the_cards(decks, cut_card) -> None:
    """Each round's pair states come from its cards, and its columns are the rules' fields."""
    procedure = Procedure(decks, cut_card, burn=False)
    for seed in range(5):
        cards = shuffled_shoe(np.random.default_rng(seed), decks)
        assert sorted(cards.tolist()) == sorted(list(range(52)) * decks)
        rounds = deal_shoe(cards, procedure)
        assert rounds["start"][0] == first_round_start(cards, procedure) == 0
        columns = round_columns(rounds)
        for i, record in enumerate(rounds):
            start = int(record["start"])
            p1, b1, p2, b2 = ((int(c) // 4 + 1, int(c) % 4) for c in cards[start : start + 4])
            pair_states = (naive.pair_state(p1, p2), naive.pair_state(b1, b2))
            assert (record["player_pair_state"], record["banker_pair_state"]) == pair_states
            expected = naive.condition_row(
                int(record["player_score"]),
                int(record["banker_score"]),
                int(record["player_third"]),
                int(record["banker_third"]),
                *pair_states,
            )
            assert {name: column[i] for name, column in columns.items()} == expected


@pytest.mark.kernels
def test_a_shoe_needs_a_deck() -> None:
    with pytest.raises(AnalyzerError, match=r"^decks must be at least 1, got 0$"):
        Procedure(0)
    assert Procedure(1, 6).cards == 52
    with pytest.raises(AnalyzerError, match=r"^cut card must leave 6 to 35 cards behind it"):
        Procedure(1, 36)


@pytest.mark.kernels
@pytest.mark.parametrize(("decks", "burn"), [(1, False), (8, True)])
def test_compositions_are_the_cards_not_yet_dealt(decks, burn) -> None:
    """Each round sees the shoe less every card before its first: counted here card by
    card from the dealing order."""
    procedure = Procedure(decks, 6, burn=burn)
    for seed in range(3):
        cards = shuffled_shoe(np.random.default_rng(seed), decks)
        rounds = deal_shoe(cards, procedure)
        left = compositions_at(cards, rounds, decks)
        assert left.shape == (len(rounds), 52) and left.dtype == np.int64
        for row, start in zip(left, rounds["start"], strict=True):
            expected = [decks] * 52
            for card in cards[:start].tolist():
                expected[card] -= 1
            assert row.tolist() == expected


def test_special_cards_are_drawn_as_the_model_says() -> None:
    """Rounds of fixed cards, many draws: the mean multiplier of each hand's cards against
    the exact moment of its identity pattern (a small virtual deck, so specials are
    common), within 5 standard errors."""
    import dataclasses
    from fractions import Fraction

    from analyzer.game.identities import identity_pattern
    from analyzer.paytables.multipliers import multipliers_from_table
    from analyzer.runs.dealer import round_multipliers, special_factors

    model = multipliers_from_table(
        {"cards": {"1": "0.5", "3": "0.5"}, "values": {"2": "0.5", "5": "0.5"}, "cap": 40}, "t"
    )
    model = dataclasses.replace(model, universe=6)
    # P1 B1 P2 B2 P3 B3 as card indexes: the Player holds card 0 twice and card 1; the
    # Banker cards 2 and 3 and no third card.
    row = np.array([0, 2, 0, 3, 1, -1])
    n = 200_000
    identities = np.tile(row, (n, 1))
    factors = special_factors(np.random.default_rng(5), identities, model)
    winner = np.full(n, "player")
    for kind, cards in [("player", [0, 0, 1]), ("banker", [2, 3]), ("both", [0, 0, 1, 2, 3])]:
        drawn = round_multipliers(factors, identities, winner, kind, model)
        pattern = identity_pattern(cards)
        mean = model.moment(pattern, 1)
        sd = float(model.moment(pattern, 2) - mean**2) ** 0.5
        assert abs(drawn.mean() - float(mean)) < 5 * sd / n**0.5, kind
    # Both copies of card 0 always carry one multiplier.
    assert np.array_equal(factors[:, 0], factors[:, 2])
    assert set(np.unique(factors)) <= {1.0, 2.0, 5.0}
    assert Fraction(1) == model.moment((), 1)


@pytest.mark.kernels
@pytest.mark.parametrize(
    ("procedure", "mixed"),
    [
        (Procedure(), False),
        (Procedure(1, 6, burn=False, last_round="one-more"), False),
        (Procedure(2, 20), True),
    ],
)
def test_shoes_dealt_together_are_those_dealt_one_by_one(procedure, mixed) -> None:
    """The same random numbers give the same shoes and rounds, a mixed cell's decisions
    included (each shoe's shuffle, then its uniform numbers)."""
    if mixed:
        rules = rules_from_table({"player_chooses": "5"})
        drawing = Drawing.of(rules, parse_strategy("player:5=9/11"))
        assert drawing.mixed
    else:
        drawing = Drawing.of()
    first = np.random.default_rng(5)
    together = deal_shoes(first, 7, procedure, drawing)
    rng = np.random.default_rng(5)
    joined = []
    for i in range(7):
        cards = shuffled_shoe(rng, procedure.decks)
        rounds = deal_shoe(cards, procedure, drawing, rng)
        assert np.array_equal(together.cards[i], cards)
        assert together.n_rounds[i] == len(rounds)
        assert np.array_equal(together.shoe(i), rounds)
        joined.append(rounds)
    assert np.array_equal(together.rounds, np.concatenate(joined))
    assert first.random() == rng.random()  # as many random numbers drawn
