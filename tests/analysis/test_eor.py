"""Effects of removal and linear counts, against independent computations."""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers import HEAD, write_paytable

from analyzer import Shoe, parse_cards, seed_paytable
from analyzer.analysis.eor import effects_of_removal, linear_counts
from analyzer.engine.symbolic import evaluate
from analyzer.game.cards import Card


@pytest.mark.slow
def test_eor_matches_independent_computation(expressions) -> None:
    """Value bets from the sympy expressions; pair bets from closed forms written here."""
    shoe = Shoe.standard(2)
    effects = effects_of_removal(
        seed_paytable(), shoe, "commission", [*expressions, "player_pair", "perfect_pair"]
    )
    base_values = shoe.value_counts
    exact: dict[tuple[str, tuple[int, ...]], Fraction] = {}

    def symbolic(bet: str, values) -> Fraction:
        key = (bet, tuple(int(v) for v in values))
        if key not in exact:  # 10, J, Q and K share a point value
            exact[key] = evaluate(expressions[bet], values)
        return exact[key]

    for row in effects.itertuples():
        rank = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"].index(row.rank)
        value = (rank + 1) % 10 if rank < 9 else 0
        after_values = base_values.copy()
        after_values[value] -= 1
        if row.bet in expressions:
            expected = symbolic(row.bet, after_values) - symbolic(row.bet, base_values)
        else:
            expected = _pair_ev(row.bet, rank) - _pair_ev(row.bet, None)
        assert row.delta_ev_exact == expected, (row.bet, row.rank)


def _pair_ev(bet: str, removed_rank: int | None) -> Fraction:
    """Two decks, less one card of ``removed_rank`` (suit in proportion: all equal here)."""
    if bet == "player_pair":
        ranks = [8] * 13
        if removed_rank is not None:
            ranks[removed_rank] -= 1
        n = sum(ranks)
        p = Fraction(sum(m * (m - 1) for m in ranks), n * (n - 1))
        return 12 * p - 1
    # Perfect pair (either hand, 25:1), averaged over the suit of the removed card.
    cards = [2] * 52
    if removed_rank is None:
        return 26 * _perfect_pair_probability(cards) - 1
    total = Fraction(0)
    for suit in range(4):
        after = list(cards)
        after[4 * removed_rank + suit] -= 1
        total += Fraction(1, 4) * (26 * _perfect_pair_probability(after) - 1)
    return total


def _perfect_pair_probability(cards: list[int]) -> Fraction:
    n = sum(cards)
    one = Fraction(sum(c * (c - 1) for c in cards), n * (n - 1))  # one hand's two cards
    both = Fraction(
        sum(
            a * (a - 1) * b * (b - 1)
            for i, a in enumerate(cards)
            for j, b in enumerate(cards)
            if i != j
        )
        + sum(c * (c - 1) * (c - 2) * (c - 3) for c in cards),
        n * (n - 1) * (n - 2) * (n - 3),
    )
    return 2 * one - both


def test_linear_count_of_the_banker() -> None:
    effects = effects_of_removal(seed_paytable(), mode="commission", bets=["banker", "player_pair"])
    counts = {c.bet: c for c in linear_counts(effects)}
    banker = counts["banker"]
    # Small cards leaving help the Banker, 5-9 hurt it; the count must follow them.
    assert all(banker.tags[r] > 0 for r in "A234") and all(banker.tags[r] < 0 for r in "56789")
    assert max(abs(t) for t in banker.tags.values()) <= 4
    assert banker.betting_correlation > 0.95
    # Removing any one card leaves a full shoe's pair probability unchanged: no count.
    assert set(counts["player_pair"].tags.values()) == {0}


def test_bets_on_suits_average_over_the_suit_and_show_each_card() -> None:
    """A bet that looks at suits gets every suit of a rank removed in turn (weighted by
    what the shoe holds), never just one: on a shoe short of red cards the colour bet's
    effects differ by suit, and the rank's effect is their average."""
    from analyzer.analysis.eor import removal_effects
    from analyzer.paytables.library import load_paytable

    shoe = Shoe.standard(1).remove(parse_cards("2H 3H 4D 5D 6H 7D"))
    by_rank, by_card = removal_effects(load_paytable("colour-match"), shoe)
    assert set(by_card["card"]) >= {"AS", "AH", "AD", "AC"}
    for rank, group in by_card.groupby("rank"):
        held = int(group["cards"].sum())
        average = sum(
            Fraction(int(n), held) * d
            for n, d in zip(group["cards"], group["delta_ev_exact"], strict=True)
        )
        row = by_rank[by_rank["rank"] == rank].iloc[0]
        assert row["delta_ev_exact"] == average
    spades, hearts = (
        by_card[by_card["card"] == card]["delta_ev_exact"].iloc[0] for card in ("AS", "AH")
    )
    assert spades != hearts


@pytest.mark.slow
def test_progress_is_told_of_every_bet_after_each_card_removed(tmp_path) -> None:
    """A bet on the round's outcome needs one card of each of the 13 ranks removed; a bet
    on a card's colour each of the 52 cards of a deck: each is told of its own removals,
    one at a time, to the last (so a slow bet moves a bar instead of holding it still)."""
    from analyzer.analysis.eor import removal_effects
    from analyzer.paytables.library import load_paytable

    path = write_paytable(
        tmp_path,
        HEAD
        + '[[bet]]\nid = "tie"\nname = "Tie"\n[[bet.rule]]\nwhen = "winner == \'tie\'"\n'
        + 'pays = "8:1"\n'
        + '[[bet]]\nid = "red"\nname = "Red"\n[[bet.rule]]\n'
        + "when = \"winner == 'player' and player_card1_colour == 'red'\"\npays = \"2:1\"\n",
    )
    calls: dict[str, list[tuple[int, int]]] = {}
    effects, _ = removal_effects(
        load_paytable(str(path)),
        Shoe.standard(1),
        progress=lambda bet, done, total: calls.setdefault(bet, []).append((done, total)),
    )
    assert calls == {
        "tie": [(done, 13) for done in range(1, 14)],
        "red": [(done, 52) for done in range(1, 53)],
    }
    assert effects["bet"].tolist() == ["tie", "red"] * 13  # rank by rank, bets in order
    # Bets on the outcome alone: where suits are not held alike, only the one on suited
    # pairs has each suit removed; where they are, both share a rank's one analysis.
    for shoe, told in (
        (Shoe.standard(1).remove([Card(0, 0)]), {"tie": (13, 13), "perfect_pair": (51, 51)}),
        (Shoe.standard(1), {"tie": (52, 52), "perfect_pair": (52, 52)}),
    ):
        calls.clear()
        removal_effects(
            seed_paytable(),
            shoe,
            "commission",
            ["tie", "perfect_pair"],
            progress=lambda bet, done, total: calls.setdefault(bet, []).append((done, total)),
        )
        assert {bet: made[-1] for bet, made in calls.items()} == told


@pytest.mark.parametrize(
    "removed", [[], [(0, 0), (0, 1)], [(3, 2)], [(9, 0)], [(11, 1), (12, 1)], None]
)
def test_cards_held_alike_share_their_removals_exactly(monkeypatch, removed) -> None:
    """Removals of suits the shoe holds alike, and of ranks of one value it holds alike
    (10, J, Q, K in a full shoe), are one analysis for the bets on the round's outcome:
    the same effects, by rank and by card, as each card removed (None: suits unknown)."""
    import numpy as np

    from analyzer.analysis import eor

    if removed is None:
        shoe = Shoe(np.array([8] * 9 + [8, 7, 8, 8]))
    else:
        shoe = Shoe.standard(2).remove([Card(rank, suit) for rank, suit in removed])
    shared = eor.removal_effects(seed_paytable(), shoe)
    monkeypatch.setattr(eor, "_alike_suits", lambda shoe: list(range(4)))
    monkeypatch.setattr(eor, "_alike_ranks", lambda shoe: list(range(13)))
    apart = eor.removal_effects(seed_paytable(), shoe)
    for frame, other in zip(shared, apart, strict=True):
        assert frame.to_dict("records") == other.to_dict("records")
    columns = 34 if removed is None else 36  # (suits unknown: no perfect pair)
    assert len(shared[0]) == 13 * columns and len(shared[1]) == (0 if removed is None else 52 * 2)


@pytest.mark.parametrize("removed", [[], [(12, 0), (12, 1), (3, 2)]])
def test_a_flush_bet_shares_the_removals_of_suits_held_alike(monkeypatch, removed) -> None:
    """Jackpot Baccarat reads suits only through a flush, which relabelling the suits
    leaves as it was: a card's removal is one analysis with the others of its rank in
    suits the shoe holds alike, with the same effects as each card removed."""
    from analyzer import load_paytable
    from analyzer.analysis import eor

    paytable = load_paytable("jackpot-baccarat")
    assert all(eor._relabel_blind(bet) for bet in paytable.bets if bet.card_level)
    colours = load_paytable("colour-match")
    assert not any(eor._relabel_blind(bet) for bet in colours.bets if bet.card_level)
    shoe = Shoe.standard(1).remove([Card(rank, suit) for rank, suit in removed])
    shared = eor.removal_effects(paytable, shoe, every_card=True)
    monkeypatch.setattr(eor, "_alike_suits", lambda shoe: list(range(4)))
    apart = eor.removal_effects(paytable, shoe, every_card=True)
    for frame, other in zip(shared, apart, strict=True):
        assert frame.to_dict("records") == other.to_dict("records")
    assert len(shared[1]) == 52 - len(removed)


@pytest.mark.slow
def test_card_bets_removals_priced_at_once_equal_a_walk_per_removal(monkeypatch) -> None:
    """Bets on the cards get every removal from their walk compiled into terms and
    evaluated in integers (one walk in all, beside the base analysis): exactly what a
    walk of each shoe a card short gives, on depleted shoes with suits known or not."""
    import analyzer
    from analyzer.analysis import eor
    from analyzer.paytables.model import paytable_from_dict

    colours = "player_card1_colour == banker_card3_colour and winner == 'tie'"
    faces = "banker_card3_rank in ('J', 'Q', 'K') and player_card2_rank == 'K'"
    bets = [
        {"id": "colours", "name": "Colours", "rule": [{"when": colours, "pays": 30}]},
        {"id": "faces", "name": "Faces", "rule": [{"when": faces, "pays": 40}]},
    ]
    paytable = paytable_from_dict({"name": "T", "modes": ["m"], "bet": bets})
    # Bets naming other constants of the same cards share one walk, and a bet offered
    # in two modes with other rules in each has one walk per mode: priced at once too.
    colour = "player_card1_colour == '{0}' and banker_card3_colour == '{1}'"
    shared = [
        {"id": f"c{i}", "name": f"C{i}", "rule": [{"when": colour.format(a, b), "pays": 3}]}
        for i, (a, b) in enumerate([("red", "red"), ("red", "black"), ("black", "red")])
    ]
    shared += [
        {
            "id": "x",
            "name": "X",
            "modes": [m],
            "rule": [{"when": colour.format("red", "red") + extra, "pays": 9}],
        }
        for m, extra in (("m1", " and winner == 'tie'"), ("m2", " and total_cards == 6"))
    ]
    modes = paytable_from_dict({"name": "S", "modes": ["m1", "m2"], "bet": shared})
    ranks_only = parse_cards("K Q J", suit_required=False)
    cases = [
        (paytable, Shoe.standard(1).remove(parse_cards("5H 6H KS"))),
        (analyzer.load_paytable("monkey"), Shoe.standard(1).remove(ranks_only)),
        (modes, Shoe.standard(1).remove(parse_cards("AH 2D"))),
    ]
    real_analyze = eor.analyze
    walked: list[dict] = []

    def counted(**kw):
        walked.append(kw)
        return real_analyze(**kw)

    for paytable, shoe in cases:
        by_class = eor.removal_effects(paytable, shoe)  # (the class walk, where it is quick)
        walked.clear()
        monkeypatch.setattr(eor, "analyze", counted)
        monkeypatch.setattr(eor, "CLASS_WALK_ROUNDS", 10**30)  # compiled into terms
        at_once = eor.removal_effects(paytable, shoe)
        assert len(walked) == 1  # the base analysis only
        monkeypatch.setattr(eor, "exact_card_expected_values", lambda *args: None)
        one_by_one = eor.removal_effects(paytable, shoe)
        assert len(walked) > 13  # a walk per removal
        monkeypatch.undo()
        assert not at_once[0].empty
        for ours, theirs, classed in zip(at_once, one_by_one, by_class, strict=True):
            assert ours["delta_ev_exact"].tolist() == theirs["delta_ev_exact"].tolist()
            assert ours["delta_ev_exact"].tolist() == classed["delta_ev_exact"].tolist()
            assert ours[["bet", "mode"]].equals(theirs[["bet", "mode"]])


def test_multiplied_bets_average_over_the_suit_of_a_removed_card(tmp_path) -> None:
    """A multiplier finds a card by rank and suit, so on a shoe holding a rank's suits
    unevenly, which suit leaves the shoe moves a multiplied bet differently: the rank's
    effect is the average over its suits, each by what the shoe holds of it, checked
    against an exact analysis of every shoe a card short (it once removed any one suit)."""
    from helpers import MULTIPLIED_PAYTABLE

    from analyzer import analyze
    from analyzer.analysis.eor import removal_effects
    from analyzer.paytables.library import load_paytable

    path = tmp_path / "multiplied.toml"
    path.write_text(MULTIPLIED_PAYTABLE)
    paytable = load_paytable(str(path))
    shoe = Shoe.standard(2).remove(parse_cards("7H 7D 7D 9S"))  # 7: S 2, H 1, C 2
    by_rank, by_card = removal_effects(paytable, shoe, bets=["player"])
    base = analyze(paytable=paytable, shoe=shoe, bets=["player"]).result("player")

    def after(cards: str) -> Fraction:
        removed = shoe.remove(parse_cards(cards))
        result = analyze(paytable=paytable, shoe=removed, bets=["player"]).result("player")
        return result.expected_value - base.expected_value

    spades, hearts = after("7S"), after("7H")
    assert spades != hearts
    expected = (2 * spades + hearts + 2 * after("7C")) / 5
    assert by_rank[by_rank["rank"] == "7"]["delta_ev_exact"].iloc[0] == expected
    assert by_card[by_card["card"] == "7H"]["delta_ev_exact"].iloc[0] == hearts


@pytest.mark.parametrize("name", ["majestic-match", "fabulous-pair"])
def test_removals_priced_at_once_price_each_kind_of_removal_once(monkeypatch, name) -> None:
    """Bets comparing suits only with each other, priced at once from their terms, price
    one shoe per kind of removal (the cards of a rank in suits the shoe holds alike are
    one): every card's effect as when each card is priced, and as a walk per removal."""
    from analyzer import load_paytable
    from analyzer.analysis import eor
    from analyzer.engine import batch

    paytable = load_paytable(name)
    shoe = Shoe.standard(1).remove(parse_cards("KS QS 5H"))
    real = batch.exact_card_expected_values
    priced: list[int] = []

    def counted(bets, compositions, *args):
        priced.append(len(compositions))
        return real(bets, compositions, *args)

    monkeypatch.setattr(eor, "exact_card_expected_values", counted)
    shared = eor.removal_effects(paytable, shoe, every_card=True)
    kinds = priced[:]
    priced.clear()
    monkeypatch.setattr(eor, "_alike_suits", lambda shoe: list(range(4)))
    apart = eor.removal_effects(paytable, shoe, every_card=True)
    # Clubs and diamonds are held alike (13 ranks, one shoe each); spades (11 left) and
    # hearts (12) are held apart.
    assert kinds == [11 + 12 + 13] * 2 and priced == [52 - 3] * 2  # (two bets, two walks)
    monkeypatch.setattr(eor, "exact_card_expected_values", lambda *args: None)
    walked = eor.removal_effects(paytable, shoe, every_card=True)
    for frame, other, third in zip(shared, apart, walked, strict=True):
        assert frame.to_dict("records") == other.to_dict("records")
        assert frame.to_dict("records") == third.to_dict("records")


# -- Balanced tags -------------------------------------------------------------------------


def _brute_force_balanced(target, cards, most):
    """The least squared error of integer tags of at most ``most`` in size whose sum over
    ``cards`` is 0, by trying every one."""
    from itertools import product

    best = None
    for tags in product(range(-most, most + 1), repeat=len(target)):
        if sum(t * n for t, n in zip(tags, cards, strict=True)):
            continue
        error = sum(n * (t - x) ** 2 for t, n, x in zip(tags, cards, target, strict=True))
        best = error if best is None else min(best, error)
    return best


@pytest.mark.parametrize("seed", range(40))
def test_balanced_tags_are_the_nearest_balanced_tags(seed) -> None:
    """The balancing is exact and least-error: against every tag vector of a few ranks,
    with uneven counts (a depleted shoe), a rank with none, and targets off the grid."""
    import numpy as np

    from analyzer.analysis.eor import MAX_TAG, _balanced_tags

    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 5))
    cards = rng.integers(0 if seed % 5 == 0 else 1, 7, k).astype(float)
    target = rng.uniform(-MAX_TAG, MAX_TAG, k)
    tags = _balanced_tags(target, cards)
    assert int(np.dot(tags, cards)) == 0 and np.abs(tags).max() <= MAX_TAG
    error = float((cards * (tags - target) ** 2).sum())
    assert error == pytest.approx(_brute_force_balanced(target, cards, MAX_TAG), abs=1e-9)


def test_tags_that_cannot_all_round_alike_take_the_correction_in_rank_order() -> None:
    """Dragon Big on a full shoe: seven ranks at 6/7 of the six's size. +1 and -1 drift by
    4 a deck; balanced, the earlier ranks keep the tag nearest their target."""
    import numpy as np

    from analyzer.analysis.eor import _balanced_tags

    target = np.array([6 / 7] * 7 + [-1.0] * 6)
    tags = _balanced_tags(target, np.full(13, 32.0))
    assert tags.tolist() == [1, 1, 1, 1, 1, 1, 0, -1, -1, -1, -1, -1, -1]


#: Betting correlations of the seed game's derived counts (8 decks) before the counts were
#: balanced exactly (every one was balanced already; Lucky Six's is now nearer its target).
SEED_CORRELATIONS_BEFORE = {
    "player": 0.9917,
    "banker": 0.9928,
    "tie": 0.9936,
    "player_natural": 0.9034,
    "banker_natural": 0.9034,
    "player_bonus": 0.9951,
    "banker_bonus": 0.991,
    "lucky_six": 0.9659,
    "lucky_six_2card": 0.9846,
    "lucky_six_3card": 0.994,
    "lucky_seven": 0.9808,
    "lucky_seven_2card": 0.9816,
    "lucky_seven_3card": 0.9887,
    "super_lucky_seven": 0.9897,
}


def test_the_seed_games_counts_correlate_no_worse_than_before() -> None:
    counts = linear_counts(effects_of_removal(seed_paytable(), Shoe.standard(8), "commission"))
    got = {count.bet: count.betting_correlation for count in counts}
    for bet, before in SEED_CORRELATIONS_BEFORE.items():
        assert got[bet] >= before - 5e-5, bet
    assert got["lucky_six"] > 0.976  # (0.9659 before)


@pytest.mark.slow
def test_every_derived_count_of_a_shipped_paytable_is_balanced() -> None:
    """What ``count`` derives (the effects on a full shoe of the paytable's decks): the
    tags' sum over the shoe's cards is 0 for every bet of every shipped paytable, and
    ranks of the same effect are tagged alike in the seed game."""
    from analyzer.paytables.library import library_names, load_paytable

    checked = 0
    for name in library_names():
        paytable = load_paytable(name)
        if paytable.unknowns:  # (count refuses them without values)
            continue
        effects = effects_of_removal(paytable, Shoe.standard(paytable.decks))
        for count in linear_counts(effects):
            group = effects[(effects["bet"] == count.bet) & (effects["mode"] == count.mode)]
            cards = dict(zip(group["rank"], group["cards"], strict=True))
            assert sum(count.tags[r] * cards[r] for r in cards) == 0, (name, count)
            checked += 1
    assert checked > 150
