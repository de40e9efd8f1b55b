"""Shoes: removals, shoe files, and the shoes that are refused."""

from __future__ import annotations

import copy
import itertools
import json
import pickle
import re
from fractions import Fraction

import numpy as np
import pytest
from helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

import analyzer
from analyzer import AnalyzerError, Card, Shoe, analyze, parse_cards
from analyzer.game.shoe import check_decks


def test_remove_known_and_bare_cards() -> None:
    shoe = Shoe.standard(8).remove(parse_cards("5H 5H KS 9D"))
    assert shoe.size == 412 and shoe.suits_known
    assert shoe.suit_counts[4, 1] == 6 and shoe.suit_counts[12, 0] == 7
    bare = Shoe.standard(8).remove(parse_cards("5 KS", suit_required=False))
    assert bare.size == 414 and not bare.suits_known and bare.rank_counts[4] == 31


ONE_DECK = " ".join(
    f"{r}{s}" for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"] for s in "SHDC"
)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("AS AS", "cannot remove AS: none left"),
        ("A A A A A", "cannot remove A: no A left"),
        (" ".join(ONE_DECK.split()[:47]), "impossible shoe: 5 cards left"),
    ],
)
def test_impossible_removals(cards, message) -> None:
    with pytest.raises(AnalyzerError, match=message):
        Shoe.standard(1).remove(parse_cards(cards, suit_required=False))


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (
            "ranks.csv",
            "rank,count\nA,31\n2,32\n3,32\n4,32\n5,32\n6,32\n7,32\n8,32\n9,32\n10,32\n"
            "J,32\nQ,32\nK,32\n",
        ),
        (
            "ranks.toml",
            "[ranks]\nA = 31\n2 = 32\n3 = 32\n4 = 32\n5 = 32\n6 = 32\n7 = 32\n8 = 32\n"
            "9 = 32\n10 = 32\nJ = 32\nQ = 32\nK = 32\n",
        ),
    ],
)
def test_shoe_files_per_rank(tmp_path, capsys, name, text) -> None:
    path = tmp_path / name
    path.write_text(text)
    code, out, _ = run(
        capsys,
        "report",
        "--shoe",
        str(path),
        "--format",
        "json",
        "--mode",
        "commission",
        "--bet",
        "banker",
        "--bet",
        "perfect_pair",
    )
    assert code == 0
    data = json.loads(out)
    rows = {row["bet"]: row for row in data["bets"]}
    unavailable = {row["bet"]: row for row in data["unavailable"]}
    expected = analyze(
        mode="commission",
        bets=["banker"],
        shoe=Shoe.standard(8).remove(parse_cards("A", suit_required=False)),
    )
    assert Fraction(rows["banker"]["house_edge"]) == expected.result("banker").house_edge
    assert "perfect_pair" not in rows and "suits" in unavailable["perfect_pair"]["reason"]


def test_shoe_file_per_card(tmp_path, capsys) -> None:
    cards = {f"{r}{s}": 2 for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"] for s in "SHDC"}
    cards["QH"] = 0
    path = tmp_path / "cards.toml"
    path.write_text("[cards]\n" + "\n".join(f"{k} = {v}" for k, v in cards.items()) + "\n")
    csv_path = tmp_path / "cards.csv"
    csv_path.write_text("card,count\n" + "\n".join(f"{k},{v}" for k, v in cards.items()) + "\n")
    outs = []
    for file in (path, csv_path):
        code, out, _ = run(
            capsys,
            "report",
            "--shoe",
            str(file),
            "--format",
            "json",
            "--bet",
            "perfect_pair",
            "--mode",
            "commission",
        )
        assert code == 0
        outs.append(json.loads(out)["bets"][0]["house_edge"])
    expected = analyze(
        mode="commission", bets=["perfect_pair"], shoe=Shoe.standard(2).remove(parse_cards("QH QH"))
    )
    assert outs == [
        f"{x.numerator}/{x.denominator}" for x in [expected.result("perfect_pair").house_edge] * 2
    ]


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("a.csv", "rank,count\nA,-1\n2,10\n", "negative"),
        ("b.csv", "rank,count\nA,1\n2,1\n", "2 cards left"),
        ("c.csv", "rank,number\nA,1\n", "header must be"),
        ("d.csv", "rank,count\nX,10\n", "unknown rank 'X'"),
        ("e.csv", "rank,count\nA,ten\n", "not a whole number"),
        ("f.toml", "[ranks]\nA = 10\nA = 3\n", "invalid TOML"),
        ("g.toml", "[ranks]\nA = 10\n1 = 3\n", "A is listed twice"),
        ("h.toml", "[decks]\nA = 10\n", "one table, [ranks] or [cards]"),
        ("i.txt", "A 10", "is .csv or .toml"),
    ],
)
def test_bad_shoe_files(tmp_path, capsys, name, text, message) -> None:
    path = tmp_path / name
    path.write_text(text)
    code, out, err = run(capsys, "report", "--shoe", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Shoe.standard(0), "at least 1"),
        (lambda: Shoe(np.array([1] * 5 + [0] * 8)), "5 cards left"),
        (lambda: Shoe(np.array([-1] + [4] * 12)), "negative"),
        (lambda: Shoe.standard(28), "too large"),
    ],
)
def test_impossible_shoes_are_refused(make, message) -> None:
    with pytest.raises(AnalyzerError, match=message):
        make()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        # The count that is wrong is named, and what it is.
        (lambda: Shoe(np.full(13, 32.7)), "got float64 values (rank A is 32.7)"),
        (lambda: Shoe([32] * 12 + ["8"]), "whole numbers of cards (rank K is '8')"),
        (lambda: Shoe([32] * 12 + [None]), "whole numbers of cards (rank K is None)"),
        (lambda: Shoe([32] * 13, [[8] * 4] * 12 + [[8, 8, 8, 8.5]]), "(card KC is 8.5)"),
        (lambda: Shoe([32] * 11 + [-3, 32]), "a count is negative (rank Q: -3)"),
        # A count of 5,000 digits: Python refuses to print it, so the message gives its size.
        (lambda: Shoe([10**5000] + [32] * 12), "(rank A: a number of about 5001 digits)"),
        # Masked entries would be counted as whatever the array holds under the mask.
        (
            lambda: Shoe(np.ma.array([32] * 12 + [-10], mask=[0] * 12 + [1])),
            "rank counts: masked arrays are not accepted",
        ),
        (
            lambda: Shoe([32] * 13, np.ma.array(np.full((13, 4), 8), mask=False)),
            "suit counts: masked arrays are not accepted",
        ),
        (lambda: Shoe([32] * 12 + [np.ma.masked]), "masked arrays are not accepted"),
        (lambda: Shoe([32] * 13, [np.ma.array([8] * 4)] * 13), "masked arrays are not"),
        (
            lambda: analyzer.shoe_from_file(3),
            "shoe file must be text or a path (a .csv or .toml file), got int 3",
        ),
    ],
)
def test_bad_counts_are_named(make, message) -> None:
    with pytest.raises(AnalyzerError, match=re.escape(message)):
        make()


@pytest.mark.parametrize(
    "again",
    [lambda shoe: pickle.loads(pickle.dumps(shoe)), copy.copy, copy.deepcopy],
    ids=["pickle", "copy", "deepcopy"],
)
@pytest.mark.parametrize("shoe", [Shoe.standard(2), Shoe([8] * 13)], ids=["suits", "ranks"])
def test_copies_and_unpickled_shoes_keep_read_only_counts(again, shoe) -> None:
    other = again(shoe)
    assert np.array_equal(other.rank_counts, shoe.rank_counts)
    assert other.suits_known is shoe.suits_known
    for counts in (other.rank_counts, other.suit_counts):
        if counts is not None:
            assert not counts.flags.writeable
            with pytest.raises(ValueError, match="read-only"):
                counts[0] = 0


def test_an_unpickled_shoe_is_checked_like_a_new_one() -> None:
    """A pickle is data from outside: one with a count changed is refused, not priced."""
    shoe = Shoe.standard(1)
    forged = pickle.dumps(shoe).replace(
        shoe.rank_counts.tobytes(), np.array([4] * 12 + [-10], dtype=np.int64).tobytes()
    )
    with pytest.raises(AnalyzerError, match=re.escape("a count is negative (rank K: -10)")):
        pickle.loads(forged)


def _removable_by_trying(shoe_suits: np.ndarray, cards: list) -> bool:
    """Can ``cards`` (some without a suit) all come out of a shoe with these counts per
    rank and suit? Tried the slow way: every suit for every suitless card."""
    bare = [card for card in cards if card.suit is None]
    for suits in itertools.product(range(4), repeat=len(bare)):
        left = shoe_suits.copy()
        chosen = iter(suits)
        for card in cards:
            suit = card.suit if card.suit is not None else next(chosen)
            left[card.rank, suit] -= 1
        if (left >= 0).all():
            return True
    return False


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 2),
    st.lists(
        st.tuples(st.integers(0, 1), st.one_of(st.none(), st.integers(0, 3))),
        min_size=1,
        max_size=6,
    ),
)
def test_removal_is_refused_exactly_when_impossible(decks, picks) -> None:
    """A card without a suit, then cards with one: every card with a suit still counts
    against its own (a bare A, then three AS from one deck, cannot be)."""
    cards = [Card(rank, suit) for rank, suit in picks]  # ranks A and 2 only: collisions
    shoe = Shoe.standard(decks)
    possible = _removable_by_trying(np.full((13, 4), decks), cards)
    if possible:
        left = shoe.remove(cards)
        assert left.rank_counts.sum() == 52 * decks - len(cards)
    else:
        with pytest.raises(AnalyzerError, match="cannot remove"):
            shoe.remove(cards)


# -- The infinite deck -----------------------------------------------------------------------


def test_the_infinite_deck() -> None:
    shoe = Shoe.standard("inf")
    assert shoe.replacement and shoe.take == 0 and shoe.decks == "inf"
    assert shoe.full_decks is None and shoe.size == 52 and shoe.rounds_denominator == 52**6
    assert shoe.describe() == "an infinite deck (cards dealt with replacement)"
    again = pickle.loads(pickle.dumps(shoe))
    assert again.replacement and again.decks == "inf"
    with pytest.raises(AnalyzerError, match="no card can be removed from an infinite deck"):
        shoe.remove(parse_cards("AS"))
    assert Shoe.standard(8).take == 1 and Shoe.standard(8).decks == 8


@pytest.mark.parametrize("decks", ["inf", "Infinite", " INF "])
def test_inf_is_a_number_of_decks(decks) -> None:
    assert check_decks(decks) == "inf"


@pytest.mark.parametrize("decks", ["infinity", "8", 2.0, None])
def test_other_text_is_no_number_of_decks(decks) -> None:
    with pytest.raises(AnalyzerError, match='whole number or "inf"'):
        check_decks(decks)


def test_inf_is_refused_where_no_infinite_deck_fits() -> None:
    with pytest.raises(AnalyzerError, match="must be a whole number, got"):
        check_decks("inf", infinite=False)
