"""The batch engine (floats, many compositions at once) against the exact analysis."""

from __future__ import annotations

import re
from itertools import permutations

import naive
import numpy as np
import pandas as pd
import pytest

from analyzer import AnalyzerError, Shoe, analyze, seed_paytable
from analyzer.engine.batch import (
    batch_expected_values,
    dealt_expected_values,
    pair_state_probabilities,
)
from analyzer.paytables.model import paytable_from_dict


def random_compositions(seed: int, n: int) -> np.ndarray:
    """Random per-card compositions: full to tiny shoes, some ranks exhausted."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        decks = int(rng.integers(1, 9))
        row = np.full(52, decks)
        left = int(rng.integers(6, 52 * decks + 1)) if i % 3 else int(rng.integers(6, 12))
        removed = rng.choice(52 * decks, 52 * decks - left, replace=False) // decks
        np.subtract.at(row, removed, 1)
        if i % 4 == 0 and row.sum() - row[8:12].sum() >= 6:
            row[8:12] = 0  # no 3s left
        rows.append(row)
    return np.array(rows)


@pytest.mark.slow
def test_batch_matches_exact_within_1e_12() -> None:
    paytable = seed_paytable()
    compositions = random_compositions(7, 40)
    batch = batch_expected_values(paytable, compositions)
    worst = 0.0
    for row, comp in enumerate(compositions):
        suits = comp.reshape(13, 4)
        exact = analyze(paytable=paytable, shoe=Shoe(suits.sum(axis=1), suits))
        for result in exact.results:
            error = abs(batch.loc[row, (result.bet.id, result.mode)] - result.expected_value)
            worst = max(worst, float(error))
    assert worst < 1e-12


@pytest.mark.slow
@pytest.mark.kernels
def test_batch_per_rank_leaves_suited_bets_out() -> None:
    paytable = seed_paytable()
    compositions = random_compositions(3, 6).reshape(6, 13, 4).sum(axis=2)
    batch = batch_expected_values(paytable, compositions)
    assert batch[("perfect_pair", "commission")].isna().all()
    for row, comp in enumerate(compositions):
        exact = analyze(paytable=paytable, shoe=Shoe(comp), mode="commission")
        for result in exact.results:
            assert (
                abs(batch.loc[row, (result.bet.id, "commission")] - result.expected_value) < 1e-12
            )


@pytest.mark.kernels
def test_batch_joint_bets_fall_back_to_exact(tmp_path) -> None:
    from analyzer.paytables.library import load_paytable

    path = tmp_path / "joint.toml"
    path.write_text(
        'name = "j"\nmodes = ["m"]\n[[bet]]\nid = "pp_win"\n[[bet.rule]]\n'
        'when = "player_pair and winner == \'player\'"\npays = "25:1"\n'
    )
    paytable = load_paytable(path)
    compositions = random_compositions(5, 3)
    batch = batch_expected_values(paytable, compositions)
    for row, comp in enumerate(compositions):
        suits = comp.reshape(13, 4)
        exact = analyze(paytable=paytable, shoe=Shoe(suits.sum(axis=1), suits))
        assert abs(batch.iloc[row, 0] - exact.results[0].expected_value) < 1e-12


@pytest.mark.kernels
@pytest.mark.parametrize(
    ("compositions", "message"),
    [
        (np.zeros((2, 12), dtype=int), "(n, 13) or (n, 52)"),
        (np.full((2, 13), 0.5), "whole numbers"),
        (np.array([[4] * 12 + [-1]]), "a count is negative (row 0, rank K: -1)"),
        (np.array([[4] * 13, [0] * 12 + [5]]), "row 1: fewer than 6 cards"),
        # The count that is not a whole number is named, with its row and rank or card.
        ([[32.5] * 13], "whole numbers of cards (row 0, rank A is 32.5)"),
        ([[32] * 13, [32] * 12 + ["8"]], "whole numbers of cards (row 1, rank K is '8')"),
        (np.full((1, 52), 8.0), "got float64 values (row 0, card AS is 8.0)"),
        ([[8] * 51 + [True]], "(row 0, card KC is True (true/false, not a number))"),
        # A masked array hides values that its conversion would count.
        (np.ma.array([[-1000] + [8] * 51], mask=[[1] + [0] * 51]), "masked arrays are not"),
        ([np.ma.array([-1000] + [8] * 51, mask=[1] + [0] * 51)], "masked arrays are not"),
        ([[np.ma.masked] + [8] * 51], "masked arrays are not"),
    ],
)
def test_batch_refuses_bad_compositions(compositions, message) -> None:
    with pytest.raises(AnalyzerError, match=re.escape(message)):
        batch_expected_values(seed_paytable(), compositions)


@pytest.mark.kernels
def test_batch_takes_a_matrix_as_the_array_it_is() -> None:
    """numpy.matrix (an ndarray subclass) once failed with numpy's AxisError."""
    rows = [[32] * 13, [31] * 12 + [32]]
    with pytest.warns(PendingDeprecationWarning):  # numpy's advice against matrix itself
        matrix = np.matrix(rows)
    from_matrix = batch_expected_values(seed_paytable(), matrix, ("commission",))
    from_lists = batch_expected_values(seed_paytable(), rows, ("commission",))
    assert from_matrix.equals(from_lists)


# -- Small shoes for the kernels (fast even with NUMBA_DISABLE_JIT=1) ----------------------


def _per_card(cards: list[tuple[int, int]]) -> np.ndarray:
    """A composition per card (rank 0-12, suit 0-3)."""
    row = np.zeros(52, dtype=np.int64)
    for rank, suit in cards:
        row[4 * rank + suit] += 1
    return row


#: Tiny and small shoes: eight cards; one deck with every 3 and three 9s gone; two decks
#: less the tens and a card in seven.
SMALL = np.array(
    [
        _per_card([(0, 0), (0, 0), (0, 1), (4, 2), (5, 3), (9, 0), (12, 1), (12, 1)]),
        _per_card(
            [
                (r, s)
                for r in range(13)
                for s in range(4)
                if r != 2 and (r, s) not in ((8, 0), (8, 1), (8, 2))
            ]
        ),
        _per_card(
            [
                (r, s)
                for r in range(13)
                for s in range(4)
                for _ in range(2)
                if r != 9 and (r + s) % 7
            ]
        ),
    ]
)


@pytest.mark.kernels
def test_batch_matches_exact_on_small_shoes() -> None:
    paytable = seed_paytable()
    batch = batch_expected_values(paytable, SMALL)
    for row, comp in enumerate(SMALL):
        suits = comp.reshape(13, 4)
        exact = analyze(paytable=paytable, shoe=Shoe(suits.sum(axis=1), suits))
        for result in exact.results:
            error = batch.loc[row, (result.bet.id, result.mode)] - result.expected_value
            assert abs(error) < 1e-12, (row, result.bet.id, result.mode)


#: Tiny physical shoes (rank 1-13 as tests/naive.py writes it, suit 0-3).
TINY = [
    [(1, 0), (1, 0), (1, 1), (2, 0), (2, 2), (3, 1), (3, 1), (3, 1), (4, 3), (13, 0)],
    [(5, 2), (5, 2), (5, 2), (5, 2), (5, 1), (9, 0), (9, 3)],
    [(7, 0), (8, 1), (10, 2), (11, 3), (12, 0), (13, 1)],
]


def _dealt_pair_states(cards: list[tuple[int, int]]) -> np.ndarray:
    """P(Player state, Banker state) by dealing every ordered first four cards."""
    counts = np.zeros((3, 3))
    for p1, b1, p2, b2 in permutations(cards, 4):
        counts[naive.pair_state(p1, p2), naive.pair_state(b1, b2)] += 1
    return counts / counts.sum()


@pytest.mark.kernels
@pytest.mark.parametrize("cards", TINY)
def test_pair_state_probabilities_match_dealing(cards) -> None:
    per_card = _per_card([(rank - 1, suit) for rank, suit in cards])
    got = pair_state_probabilities(per_card[None, :], np.repeat(np.arange(13), 4))
    assert np.allclose(got[0], _dealt_pair_states(cards), rtol=0, atol=1e-14)
    # With ranks as the types, "the same type" is the same rank, suits unseen.
    per_rank = per_card.reshape(13, 4).sum(axis=1)
    got = pair_state_probabilities(per_rank[None, :], np.arange(13))
    unseen = [(rank, None) for rank, _ in cards]
    assert np.allclose(got[0], _dealt_pair_states(unseen), rtol=0, atol=1e-14)


@pytest.mark.kernels
def test_batch_takes_python_integers_and_a_choice_of_modes() -> None:
    paytable = seed_paytable()
    full = batch_expected_values(paytable, SMALL)
    as_lists = batch_expected_values(paytable, SMALL.tolist())  # Python ints, read exactly
    pd.testing.assert_frame_equal(as_lists, full)
    for modes in (("commission",), ["commission"]):
        chosen = batch_expected_values(paytable, SMALL, modes=modes)
        assert set(chosen.columns.get_level_values("mode")) == {"commission"}
        pd.testing.assert_frame_equal(chosen, full.loc[:, chosen.columns])
    for modes, message in (
        (("nope",), "unknown mode 'nope'"),
        ("commission", "tuple of mode names"),
        ((1,), "tuple of mode names"),
    ):
        with pytest.raises(AnalyzerError, match=message):
            batch_expected_values(paytable, SMALL, modes=modes)
    with pytest.raises(AnalyzerError, match="paytable must be a Paytable"):
        batch_expected_values(3, SMALL)
    with pytest.raises(AnalyzerError, match="unknown paytable 'no-such-game'"):
        batch_expected_values("no-such-game", SMALL)
    # A shipped name is the shipped paytable.
    pd.testing.assert_frame_equal(batch_expected_values("seed-game", SMALL), full)
    with pytest.raises(AnalyzerError, match=r"\(n, 13\) or \(n, 52\)"):
        batch_expected_values(paytable, [[4] * 13, [4] * 12])


@pytest.mark.kernels
def test_a_joint_bet_on_suited_pairs_needs_suits() -> None:
    paytable = paytable_from_dict(
        {
            "name": "J",
            "modes": ["m"],
            "bet": [
                {
                    "id": "suited_win",
                    "rule": [{"when": "player_suited_pair and winner == 'player'", "pays": 100}],
                }
            ],
        }
    )
    per_card = SMALL[2:]
    per_rank = per_card.reshape(1, 13, 4).sum(axis=2)
    assert np.isnan(batch_expected_values(paytable, per_rank).iloc[0, 0])
    suits = per_card[0].reshape(13, 4)
    exact = analyze(paytable=paytable, shoe=Shoe(suits.sum(axis=1), suits))
    got = batch_expected_values(paytable, per_card).iloc[0, 0]
    assert abs(got - exact.results[0].expected_value) < 1e-12


def test_a_few_compositions_go_to_the_exact_card_walk() -> None:
    """Per composition, exactly: with known suits every card bet has a value; with counts
    per rank, bets on suits or colours are NaN (their suits are unknown)."""
    from analyzer import load_paytable

    paytable = load_paytable("monkey")
    rng = np.random.default_rng(7)
    suits = rng.integers(3, 9, size=(2, 13, 4))
    values = batch_expected_values(paytable, suits.reshape(2, 52))
    for row in range(2):
        shoe = Shoe(suits[row].sum(axis=1), suits[row])
        analysis = analyze(paytable=paytable, shoe=shoe)
        exact = {r.bet.id: float(r.expected_value) for r in analysis.results}
        for (bet, _), value in values.iloc[row].items():
            assert value == pytest.approx(exact[bet], abs=1e-12)
    colours = batch_expected_values(load_paytable("colour-match"), suits.sum(axis=2))
    assert colours.isna().all().all()


def _exact_values(paytable, compositions: np.ndarray) -> list[dict[str, float]]:
    """EV of every bet on each composition (per card or per rank) by the exact analysis."""
    out = []
    for comp in compositions:
        if comp.shape[0] == 52:
            suits = comp.reshape(13, 4)
            shoe = Shoe(suits.sum(axis=1), suits)
        else:
            shoe = Shoe(comp)
        results = analyze(paytable=paytable, shoe=shoe).results
        out.append({r.bet.id: float(r.expected_value) for r in results})
    return out


#: Shipped card paytables whose exact analysis is quick enough to run per composition.
CARD_PAYTABLES = ["monkey", "tie-max", "perfect-9", "majestic-match", "lucky-match", "lucky-nines"]


@pytest.mark.slow
@pytest.mark.parametrize("name", CARD_PAYTABLES)
def test_card_bets_from_terms_match_the_exact_walk(name) -> None:
    """Many compositions: the compiled terms, against the exact walk of each one (tiny
    shoes, exhausted ranks, one to eight decks)."""
    from analyzer import load_paytable

    paytable = load_paytable(name)
    compositions = np.concatenate([random_compositions(11, 6), SMALL])
    values = batch_expected_values(paytable, compositions)
    for row, exact in enumerate(_exact_values(paytable, compositions)):
        for (bet, _), value in values.iloc[row].items():
            assert value == pytest.approx(exact[bet], abs=1e-12), (row, bet)


def test_joint_pair_bets_and_per_rank_card_bets_from_terms() -> None:
    """Pairs joined with the result go to the card walk's terms too; so do card bets on
    ranks given counts per rank, while bets on colours are NaN."""
    paytable = paytable_from_dict(
        {
            "name": "J",
            "modes": ["m"],
            "bet": [
                {
                    "id": "pp_win",
                    "rule": [{"when": "player_pair and winner == 'player'", "pays": 25}],
                },
                {"id": "k3", "rule": [{"when": "banker_card3_rank == 'K'", "pays": 12}]},
                {"id": "red", "rule": [{"when": "player_card1_colour == 'red'", "pays": 1}]},
            ],
        }
    )
    per_card = np.concatenate([random_compositions(13, 5), SMALL])
    per_rank = per_card.reshape(len(per_card), 13, 4).sum(axis=2)
    for compositions in (per_card, per_rank):
        values = batch_expected_values(paytable, compositions)
        for row, exact in enumerate(_exact_values(paytable, compositions)):
            for (bet, _), value in values.iloc[row].items():
                if bet in exact:
                    assert value == pytest.approx(exact[bet], abs=1e-12), (row, bet)
                else:
                    assert np.isnan(value) and bet == "red"


#: Bets on two of the first four cards: few enough terms to run the term kernels with the
#: JIT off. One never pays (no term of its own).
RED_KING = paytable_from_dict(
    {
        "name": "C",
        "modes": ["m"],
        "bet": [
            {
                "id": "red_king",
                "rule": [
                    {
                        "when": "player_card1_colour == 'red' and banker_card2_rank == 'K'",
                        "pays": 30,
                    }
                ],
            },
            {
                "id": "never",
                "rule": [
                    {
                        "when": "player_card1_colour == 'red' == 'black' "
                        "and banker_card2_rank == 'K'",
                        "pays": 30,
                    }
                ],
            },
        ],
    }
)


def _check_red_king() -> None:
    compositions = np.concatenate([SMALL, SMALL[::-1] // 2 + SMALL[:1]])
    values = batch_expected_values(RED_KING, compositions)
    for row, exact in enumerate(_exact_values(RED_KING, compositions)):
        for bet in ("red_king", "never"):
            assert values.loc[row, (bet, "m")] == pytest.approx(exact[bet], abs=1e-12), row
    assert (values[("never", "m")] == -1).all()


@pytest.mark.kernels
def test_terms_of_bets_on_two_of_the_first_four_cards() -> None:
    _check_red_king()


@pytest.mark.kernels
def test_too_many_terms_fall_back_to_the_exact_walk(monkeypatch) -> None:
    from analyzer.engine import batch
    from analyzer.engine.card_walk import terms as card_walk

    monkeypatch.setattr(card_walk, "MAX_TERMS", 3)
    monkeypatch.setattr(batch, "_COMPILED", {})
    _check_red_king()
    assert None in batch._COMPILED.values()  # compiling stopped short, and is not retried


def test_a_rank_alone_in_its_value_is_one_factor() -> None:
    """Ranks A-9 are each the whole of their value: a term's cards of such a rank weigh
    ff(n, k + m) whether dealt by rank or by value, so those terms merge (fewer terms, the
    same EVs: the test above checks them against the exact walk)."""
    from analyzer.engine import batch

    bet = paytable_from_dict(
        {
            "name": "P",
            "modes": ["m"],
            "bet": [
                {"id": "pp", "rule": [{"when": "player_pair and winner == 'player'", "pays": 25}]}
            ],
        }
    ).bets[0]
    compiled = batch._compile_card_bets([bet])
    terms = compiled.card_terms
    whole = batch._whole_values(terms)
    # Value v (1-9) is rank v's alone; value 0 holds four ranks (10, J, Q, K).
    assert sorted(whole) == [terms.n_types + v for v in range(1, 10)]
    assert all(terms.members[rank] == whole[terms.n_types + rank + 1] for rank in range(9))
    assert len(compiled.term_factor) < len(np.unique(terms.term_index))
    slots = set(compiled.factor_slot.tolist())
    assert not slots & set(whole)  # no factor left on a merged value


def test_dealt_compositions_match_exact() -> None:
    """The count's path (bets of any mode, dealt per-card compositions, no second check)
    against the exact analysis."""
    paytable = seed_paytable()
    mode = paytable.modes[-1]
    bets = [bet for bet, _ in paytable.offered((mode,))]
    compositions = random_compositions(11, 8).astype(np.int64)
    values = dealt_expected_values(bets, compositions)
    assert values.shape == (8, len(bets))
    for row, comp in enumerate(compositions):
        suits = comp.reshape(13, 4)
        exact = analyze(paytable=paytable, shoe=Shoe(suits.sum(axis=1), suits), mode=mode)
        by_bet = {result.bet.id: result.expected_value for result in exact.results}
        for b, bet in enumerate(bets):
            assert abs(values[row, b] - by_bet[bet.id]) < 1e-12
    # By rank (a dealt shoe whose suits are unknown): the same EVs, a bet on suits NaN.
    ranks = compositions.reshape(-1, 13, 4).sum(axis=2)
    by_rank = dealt_expected_values(bets, ranks)
    on_suits = [b for b, bet in enumerate(bets) if np.isnan(by_rank[:, b]).all()]
    assert [bets[b].id for b in on_suits] == ["perfect_pair"]
    others = [b for b in range(len(bets)) if b not in on_suits]
    np.testing.assert_allclose(by_rank[:, others], values[:, others], rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="int64"):
        dealt_expected_values(bets, ranks[:, :10])
    with pytest.raises(ValueError, match="int64"):
        dealt_expected_values(bets, ranks.astype(float))


def test_value_bets_are_classed_by_their_payouts_in_integer_codes() -> None:
    """The outcome classes of many value bets (codes and one unique, where Fractions per
    cell took 108 s for 6,500 bets) against the plain definition: cells with the same
    vector of nets are one class, numbered as first met; a cell every bet loses is -1."""
    from fractions import Fraction

    from analyzer.engine.batch import _value_classes
    from analyzer.engine.terms import cell_columns, cell_nets
    from analyzer.paytables.model import paytable_from_dict

    bets = [
        {
            "id": f"b{i}",
            "name": f"B{i}",
            "rule": [
                {"when": f"player_score + banker_score * {i % 7 + 1} == {i % 23}", "pays": "5:2"},
                {"when": f"winner == 'tie' and player_score == {i % 10}", "pays": "push"},
                {"when": f"banker_score == {i % 10}", "pays": f"{i % 4 + 1}:1"},
            ],
        }
        for i in range(40)
    ]
    paytable = paytable_from_dict({"name": "T", "modes": ["m"], "bet": bets})
    cell_class, class_plus_one = _value_classes(list(paytable.bets))
    nets_by_cell = list(zip(*(cell_nets(bet) for bet in paytable.bets), strict=True))
    numbered: dict[tuple, int] = {}
    expected = []
    for nets in nets_by_cell:
        if all(net == -1 for net in nets):
            expected.append(-1)
        else:
            expected.append(numbered.setdefault(nets, len(numbered)))
    assert cell_class.tolist() == expected
    assert len(cell_class) == len(cell_columns()["player_score"])
    for nets, number in numbered.items():
        assert class_plus_one[number].tolist() == [float(net + Fraction(1)) for net in nets]


@pytest.mark.slow
@pytest.mark.kernels
def test_exact_card_evs_from_terms_equal_the_walk_on_small_shoes(monkeypatch) -> None:
    """Bets on the cards priced from their terms in integers (the effects of removal's
    way) give exactly the walk's EV of each shoe; a walk too long to compile is walked
    for every composition, and the budget is told so."""
    from analyzer import analyze
    from analyzer.engine import batch
    from analyzer.engine.card_walk import walk_visits
    from analyzer.paytables.model import paytable_from_dict

    rules = [
        {"when": "player_card1_colour == banker_card1_colour == 'red'", "pays": "3:1"},
        {"when": "player_card1_rank == 'A'", "pays": "push"},
    ]
    paytable = paytable_from_dict(
        {"name": "T", "modes": ["m"], "bet": [{"id": "red", "name": "Red", "rule": rules}]}
    )
    bet = paytable.bets[0]
    rng = np.random.default_rng(7)
    compositions = rng.integers(0, 3, size=(4, 52))
    compositions[:, :8] += 1  # at least a round's cards
    exact = batch.exact_card_expected_values([bet], compositions)
    for row, (ev,) in zip(compositions, exact, strict=True):
        counts = row.reshape(13, 4)
        shoe = Shoe(counts.sum(axis=1), counts)
        assert ev == analyze(paytable=paytable, shoe=shoe).results[0].expected_value
    visits = walk_visits(bet.fields, bet.literals)
    assert batch.compiles_to_terms(bet.fields, bet.literals)
    assert batch.walked_per_composition([bet]) == 0
    assert batch.compiled_per_process([bet, bet]) == visits > 0  # one walk for both
    monkeypatch.setattr(batch, "_MAX_TERM_VISITS", 0)
    monkeypatch.setattr(batch, "_MAX_COMPILED_VISITS", 0)
    assert not batch.compiles_to_terms(bet.fields, bet.literals)
    assert batch.exact_card_expected_values([bet], compositions) is None
    assert batch.walked_per_composition([bet]) == visits
    assert batch.compiled_per_process([bet]) == 0


@pytest.mark.slow
def test_compiled_card_terms_are_kept_per_walk_tableau_and_settlement(monkeypatch) -> None:
    """A walk compiled into exact terms is kept by its walk, tableau and the bets'
    settlements: the same bets again read it, a bet paying otherwise or the same bet
    under other drawing rules compile their own, and what each reads back prices every
    shoe exactly as its own walk does."""
    from analyzer import analyze
    from analyzer.engine import batch
    from analyzer.game.rules import named_rules
    from analyzer.paytables.model import paytable_from_dict

    when = "player_card1_suit == banker_card3_suit and total_cards == 6"
    paytables = [
        paytable_from_dict(
            {"name": "T", "modes": ["m"], "bet": [{"id": "b", "name": "B", "rule": rule}]} | extra
        )
        for rule, extra in (
            ([{"when": when, "pays": 8}], {}),
            ([{"when": when, "pays": 9}], {}),
            ([{"when": when, "pays": 8}], {"rules": "bahamian"}),
        )
    ]
    compositions = np.full((3, 52), 1)
    compositions[1, [0, 5, 9]] = 0
    compositions[2, 13:26] += 1
    batch._EXACT_TERMS.clear()
    kept = []
    for paytable in paytables:
        bet = paytable.bets[0]
        evs = batch.exact_card_expected_values(
            [bet], compositions, rules=paytable.rules, strategy=paytable.strategy
        )
        kept.append(len(batch._EXACT_TERMS))
        again = batch.exact_card_expected_values(
            [bet], compositions, rules=paytable.rules, strategy=paytable.strategy
        )
        assert again == evs and len(batch._EXACT_TERMS) == kept[-1]
        for row, (ev,) in zip(compositions, evs, strict=True):
            counts = row.reshape(13, 4)
            shoe = Shoe(counts.sum(axis=1), counts)
            assert ev == analyze(paytable=paytable, shoe=shoe).results[0].expected_value
    assert kept == [1, 2, 3]
    assert paytables[2].rules == named_rules("bahamian")
    # Terms past the size kept are used once: the same figures, nothing kept.
    batch._EXACT_TERMS.clear()
    monkeypatch.setattr(batch, "_KEPT_ENTRIES", 0)
    bet = paytables[0].bets[0]
    once = batch.exact_card_expected_values([bet], compositions)
    assert len(batch._EXACT_TERMS) == 0
    monkeypatch.undo()
    assert once == batch.exact_card_expected_values([bet], compositions)


def test_bets_comparing_suits_with_each_other_price_from_terms_as_walked_by_pattern() -> None:
    """Terms compile suits as they are (a pattern's ways are no product of counts where
    suits differ); the walk counts them by pattern: the same exact EV on shoes whose suits
    differ. A walk by pattern too long to compile suit by suit is walked per composition,
    and weighed at its own visits, not at the suit-by-suit walk's."""
    from analyzer import analyze
    from analyzer.engine import batch
    from analyzer.engine.card_walk import MAX_VISITS, walk_visits
    from analyzer.paytables.model import paytable_from_dict

    rules = [
        {"when": "player_card1_suit == banker_card1_suit != player_card2_suit", "pays": "3:1"},
        {"when": "player_card1_suit != banker_card2_suit", "pays": "push"},
    ]
    paytable = paytable_from_dict(
        {"name": "T", "modes": ["m"], "bet": [{"id": "s", "name": "Suits", "rule": rules}]}
    )
    bet = paytable.bets[0]
    assert bet.relational == {"player_card1_suit", "banker_card1_suit", "player_card2_suit"} | {
        "banker_card2_suit"
    }
    rng = np.random.default_rng(11)
    compositions = rng.integers(0, 3, size=(3, 52))
    compositions[:, :8] += 1
    exact = batch.exact_card_expected_values([bet], compositions)
    for row, (ev,) in zip(compositions, exact, strict=True):
        counts = row.reshape(13, 4)
        shoe = Shoe(counts.sum(axis=1), counts)
        assert ev == analyze(paytable=paytable, shoe=shoe).results[0].expected_value
    hands = [
        f"{hand}_cards == 3 and {hand}_score == 8 and "
        + " == ".join(f"{hand}_card{i}_suit" for i in (1, 2, 3))
        for hand in ("player", "banker")
    ]
    one, both = (
        paytable_from_dict(
            {"name": "T", "bet": [{"id": "b", "name": "B", "rule": [{"when": w, "pays": "9:1"}]}]}
        ).bets[0]
        for w in (hands[0], " and ".join(hands))
    )
    # One hand's three suits compile suit by suit (7e7 rounds): no walk per composition.
    assert batch.walked_per_composition([one]) == 0
    assert batch.compiled_per_process([one]) == walk_visits(one.fields) <= 10**8
    # Both hands' six do not (4e9): walked per composition by pattern (2e8).
    by_pattern = walk_visits(both.fields, both.literals, both.relational)
    assert walk_visits(both.fields) > MAX_VISITS > 10 * by_pattern
    assert batch.walked_per_composition([both]) == by_pattern
    assert batch.compiled_per_process([both]) == 0


# -- Fees and multiplied bets: every engine settles them as the Settlement says ------------


@pytest.mark.slow
def test_multiplied_bets_in_the_batch_engine_equal_every_deal_and_every_draw() -> None:
    """Multiplied bets of every kind, a fee and a cap, on several tiny shoes at once (by
    card): each composition's EV per unit paid equals the brute force's, which deals every
    sequence and draws every set of special cards; by rank (suits unknown) they are NaN."""
    from fractions import Fraction

    from helpers import FEE, MULTIPLIED_BETS, POOL, UNIVERSE, multiplied_paytable, shoe_of_cards
    from naive_multipliers import reference_moments

    paytable = multiplied_paytable({"1": "0.5", "2": "0.5"}, {"2": "0.75", "5": "0.25"}, "8")
    distribution = (
        {1: Fraction(1, 2), 2: Fraction(1, 2)},
        {Fraction(2): Fraction(3, 4), Fraction(5): Fraction(1, 4)},
        Fraction(8),
    )
    shoes = [POOL, [*POOL, (1, 0)], [*POOL[1:], (13, 0), (9, 1)]]
    compositions = np.array([shoe_of_cards(cards).suit_counts.reshape(-1) for cards in shoes])
    evs = batch_expected_values(paytable, compositions)
    for row, cards in enumerate(shoes):
        for bet_id, kind, rules in MULTIPLIED_BETS:
            spec = [(test, Fraction(str(a)), Fraction(b)) for _, _, test, a, b in rules]
            first, _, _ = reference_moments(cards, kind, spec, UNIVERSE, distribution)
            expected = (first - FEE) / (1 + FEE)
            got = evs[(bet_id, paytable.modes[0])].iloc[row]
            assert got == pytest.approx(float(expected), abs=1e-12), bet_id
    per_rank = compositions.reshape(len(shoes), 13, 4).sum(axis=2)
    assert batch_expected_values(paytable, per_rank).isna().all().all()


FEE_PAYTABLE = {
    "name": "Fees",
    "fee": "0.25",
    "bet": [
        {"id": "banker", "rule": [{"when": "winner == 'banker'", "pays": "0.95:1"},
                                  {"when": "winner == 'tie'", "pays": "push"}]},
        {"id": "pair", "rule": [{"when": "player_pair or banker_pair", "pays": "5:1"}]},
        {"id": "pair_win",
         "rule": [{"when": "player_pair and winner == 'player'", "pays": "20:1"}]},
        {"id": "red", "rule": [{"when": "player_card1_colour == 'red'", "pays": "1:1"}]},
    ],
}  # fmt: skip


@pytest.mark.parametrize("by_card", [True, False])
def test_a_fee_is_paid_on_every_engine_of_the_batch(by_card) -> None:
    """Value terms, pair states, the card walk's terms and the exact walk of each
    composition all report EV per unit paid, the fee included, as the exact analysis does
    (itself checked against the brute force), on depleted shoes by card and by rank."""
    paytable = paytable_from_dict(FEE_PAYTABLE)
    rng = np.random.default_rng(20)
    full = Shoe.standard(1).suit_counts.reshape(-1)
    rows = [full - rng.multinomial(10, full / full.sum()).clip(max=full) for _ in range(5)]
    compositions = np.array(rows)
    if not by_card:
        compositions = compositions.reshape(len(rows), 13, 4).sum(axis=2)
    evs = batch_expected_values(paytable, compositions)
    for row, counts in enumerate(compositions):
        shoe = (
            Shoe(counts.reshape(13, 4).sum(axis=1), counts.reshape(13, 4))
            if by_card
            else Shoe(counts)
        )
        exact = analyze(paytable=paytable, shoe=shoe)
        for result in exact.results:
            got = evs[(result.bet.id, result.mode)].iloc[row]
            assert got == pytest.approx(float(result.expected_value), abs=1e-12), result.bet.id
        assert exact.result("banker").expected_value < -0.2  # the fee is in it


#: The hostile review's bets (2026-12-06, R1) joining a suited pair with what the value
#: walk deals; the batch engine once gave each about -1 from terms whose suits were dealt
#: by pattern (a pattern's ways are no product of counts).
SUITED_JOINED = paytable_from_dict(
    {
        "name": "S",
        "modes": ["m"],
        "bet": [
            {
                "id": "tie_or_suited",
                "rule": [
                    {"when": "winner == 'tie'", "pays": "10:1"},
                    {"when": "banker_suited_pair", "pays": "17:1"},
                ],
            },
            {
                "id": "suited_tie",
                "rule": [{"when": "player_suited_pair and winner == 'tie'", "pays": "10:1"}],
            },
            {
                "id": "pair_win_or_suited",
                "rule": [
                    {"when": "player_pair and winner == 'player'", "pays": "20:1"},
                    {"when": "banker_suited_pair", "pays": "50:1"},
                ],
            },
            {
                "id": "natural_suited",
                "rule": [{"when": "natural and player_suited_pair", "pays": "200:1"}],
            },
            {
                "id": "suited_third_king",
                "rule": [
                    {"when": "player_suited_pair and player_card3_rank == 'K'", "pays": "100:1"},
                    {"when": "banker_suited_pair", "pays": "20:1"},
                ],
            },
        ],
    }
)


def _brute_force_evs(cards: list[tuple[int, int]]) -> dict[str, float]:
    """Each SUITED_JOINED bet's EV from every ordered deal of ``cards`` (tests/naive.py)."""
    from fractions import Fraction

    fields = [
        "winner",
        "natural",
        "player_pair",
        "player_suited_pair",
        "banker_suited_pair",
        "player_card3_rank",
    ]
    counts = naive.card_reference(cards, fields)
    total = sum(counts.values())
    rows = [(dict(zip(fields, key, strict=True)), ways) for key, ways in counts.items()]

    def pays(r: dict) -> dict[str, int]:
        tie, natural = r["winner"] == "tie", r["natural"]
        player_suited, banker_suited = r["player_suited_pair"], r["banker_suited_pair"]
        return {
            "tie_or_suited": 10 if tie else 17 if banker_suited else -1,
            "suited_tie": 10 if player_suited and tie else -1,
            "pair_win_or_suited": 20
            if r["player_pair"] and r["winner"] == "player"
            else 50
            if banker_suited
            else -1,
            "natural_suited": 200 if natural and player_suited else -1,
            "suited_third_king": 100
            if player_suited and r["player_card3_rank"] == "K"
            else 20
            if banker_suited
            else -1,
        }

    sums: dict[str, int] = {}
    for row, ways in rows:
        for bet, net in pays(row).items():
            sums[bet] = sums.get(bet, 0) + ways * net
    return {bet: float(Fraction(total_net, total)) for bet, total_net in sums.items()}


#: Tiny shoes of physical cards (rank 1..13, suit 0..3) with suited pairs to deal: each
#: ace and king twice over, and a third card to draw.
SUITED_SHOES = [
    [(1, 0), (1, 0), (13, 1), (13, 1), (5, 2), (4, 3), (13, 0), (9, 0)],
    [(1, 0), (1, 0), (1, 1), (13, 1), (13, 1), (2, 2), (6, 3), (10, 0)],
    [(5, 0), (5, 0), (13, 1), (13, 1), (13, 1), (3, 2), (8, 3), (7, 1)],
    [(12, 3), (12, 3), (13, 1), (13, 1), (4, 0), (4, 0), (6, 2), (1, 0)],
]


@pytest.mark.slow  # (not `kernels`: the terms it compiles walk hours with the JIT off)
def test_a_suited_pair_joined_with_the_round_is_priced_from_terms_as_dealt() -> None:
    """Enough compositions that the batch engine compiles its terms (it once walked each
    of a few compositions exactly, and so priced these bets right), against every deal."""
    compositions = np.array(
        [_per_card([(rank - 1, suit) for rank, suit in cards]) for cards in SUITED_SHOES]
    )
    values = batch_expected_values(SUITED_JOINED, compositions)
    for row, cards in enumerate(SUITED_SHOES):
        for bet, expected in _brute_force_evs(cards).items():
            assert values.loc[row, (bet, "m")] == pytest.approx(expected, abs=1e-12), (row, bet)


@pytest.mark.slow
def test_a_suited_pair_joined_with_the_round_on_full_shoes() -> None:
    """The review's figures: on 8 decks +0.3222 for a tie at 10:1 or a Banker suited pair
    at 17:1 (batch: -0.9957 before), the exact analysis the reference."""
    compositions = np.concatenate([np.full((2, 52), 8), random_compositions(5, 3)])
    values = batch_expected_values(SUITED_JOINED, compositions)
    for row, exact in enumerate(_exact_values(SUITED_JOINED, compositions)):
        for bet, expected in exact.items():
            assert values.loc[row, (bet, "m")] == pytest.approx(expected, abs=1e-12), (row, bet)
    assert values.loc[0, ("tie_or_suited", "m")] > 0.32


def test_exact_terms_of_a_bet_whose_payout_no_round_reaches() -> None:
    """Every key of a short walk is classed, those no round deals included: a payout only
    such keys settle (six ranks apart and a pair: never) was numbered as a class the
    terms never reach, and pricing them failed with an IndexError (found by
    test_engines_agree)."""
    from analyzer.engine.batch import exact_card_expected_values

    paytable = paytable_from_dict(
        {
            "name": "N",
            "modes": ["m"],
            "bet": [
                {
                    "id": "never",
                    "rule": [
                        {"when": "cards_pattern == '1+1+1+1+1+1' and player_pair", "pays": "push"}
                    ],
                }
            ],
        }
    )
    got = exact_card_expected_values(list(paytable.bets), SMALL)
    for row, exact in enumerate(_exact_values(paytable, SMALL)):
        assert got[row][0] == exact["never"] == -1


def test_many_compositions_compile_a_walk_too_long_to_compile_for_a_few(monkeypatch) -> None:
    """A walk between the two limits (here: any walk) is compiled once where more than
    COMPILING compositions pay for it, and walked per composition for fewer; a command
    weighs it as compiled. (count of a bet walking 1.2e8 rounds walked each of its 104
    rounds a shoe, minutes each shoe, inside its budget.)"""
    from analyzer.engine import batch
    from analyzer.engine.card_walk import COMPILING, walk_visits

    bet = RED_KING.bets[0]
    monkeypatch.setattr(batch, "_MAX_TERM_VISITS", 0)
    monkeypatch.setattr(batch, "_COMPILED", {})
    walked = []
    real = batch.CardWalk

    def counted(*args, **kwargs):
        walked.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(batch, "CardWalk", counted)
    few = np.concatenate([SMALL, SMALL[:1]])  # 4 compositions, not more than COMPILING
    assert len(few) <= COMPILING
    batch_expected_values(RED_KING, few)
    assert len(walked) == len(few) and not batch._COMPILED
    many = np.concatenate([SMALL, SMALL])
    assert len(many) > COMPILING
    values = batch_expected_values(RED_KING, many)
    assert len(walked) == len(few) and len(batch._COMPILED) == 1  # compiled, none walked
    for row, exact in enumerate(_exact_values(RED_KING, many)):
        assert values.loc[row, ("red_king", "m")] == pytest.approx(exact["red_king"], abs=1e-12)
    assert batch.walked_per_composition([bet]) == 0
    assert batch.compiled_per_process([bet]) == walk_visits(bet.fields, bet.literals)


def test_walking_too_many_compositions_is_refused_before_any_walk(monkeypatch) -> None:
    """Terms too many to hold leave each composition to be walked: past the command's
    limit of rounds, one line names the rounds and the limit, and nothing is walked."""
    from analyzer.engine import batch
    from analyzer.engine.card_walk import walk_visits

    bet = RED_KING.bets[0]
    visits = walk_visits(bet.fields, bet.literals, bet.relational)
    MAX_COMMAND_VISITS = 10 * visits  # (the real limit takes 1.5e10 / visits compositions)
    monkeypatch.setattr(batch, "MAX_COMMAND_VISITS", MAX_COMMAND_VISITS)
    monkeypatch.setattr(batch, "_COMPILED", {})
    monkeypatch.setattr(batch, "_compile_card_bets", lambda bets, tableau: None)
    monkeypatch.setattr(batch, "CardWalk", None)  # any walk fails
    n = MAX_COMMAND_VISITS // visits + 1
    compositions = np.repeat(SMALL[1:2], n, axis=0)
    message = (
        f"walking each of {n:,} compositions would visit about {n * visits:,} rounds "
        f"(at most {MAX_COMMAND_VISITS:,})"
    )
    with pytest.raises(AnalyzerError, match=re.escape(message)):
        batch_expected_values(RED_KING, compositions)


def test_pairs_and_the_round_too_many_to_lay_out_as_terms_are_priced_exactly() -> None:
    """Both hands' pairs beside the scores' sum and the Banker's third card are more kinds
    of round than one table of terms holds: the batch engine once refused the bet (the
    exact analysis prices it on the pair table); it now prices each composition exactly
    (found by test_engines_agree)."""
    paytable = paytable_from_dict(
        {
            "name": "P",
            "modes": ["m"],
            "bet": [
                {
                    "id": "pairs",
                    "rule": [
                        {"when": "player_pair", "pays": "push"},
                        {
                            "when": "player_score + banker_score >= 12 or banker_third == -1",
                            "pays": "1:1",
                        },
                        {"when": "banker_pair", "pays": "5:1"},
                    ],
                }
            ],
        }
    )
    compositions = np.concatenate([SMALL, SMALL[:2]])
    values = batch_expected_values(paytable, compositions)
    for row, exact in enumerate(_exact_values(paytable, compositions)):
        assert values.loc[row, ("pairs", "m")] == pytest.approx(exact["pairs"], abs=1e-12)
