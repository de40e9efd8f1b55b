"""Any shoe: removals, shoe files, exact symbolic EVs, the batch engine and the EORs."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import naive
import numpy as np
import pytest
from helpers import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import AnalyzerError, Shoe, analyze, parse_cards, seed_paytable
from analyzer.analysis.eor import effects_of_removal, linear_counts
from analyzer.engine.batch import batch_expected_values
from analyzer.engine.symbolic import evaluate, expected_value_expression

FEW = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- Removals and shoe files ---------------------------------------------------------------


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
    rows = {row["bet"]: row for row in json.loads(out)}
    expected = analyze(
        mode="commission",
        bets=["banker"],
        shoe=Shoe.standard(8).remove(parse_cards("A", suit_required=False)),
    )
    assert Fraction(rows["banker"]["house_edge"]) == expected.result("banker").house_edge
    assert (
        rows["perfect_pair"]["house_edge"] is None
        and "suits" in rows["perfect_pair"]["unavailable"]
    )


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
        outs.append(json.loads(out)[0]["house_edge"])
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
    ("argv", "message"),
    [
        (["report", "--remove", "5H " * 33], "cannot remove 5H"),
        (["report", "--remove", "ZZ"], "unknown card 'ZZ'"),
        (["report", "--shoe", "x.csv", "--decks", "2"], "--decks or --shoe"),
        (["report", "--shoe", "missing.csv"], "missing.csv: no such file"),
        (["verify", "seed-game", "--remove", "5H " * 40], "cannot remove 5H"),
        (["eor", "--plot", "chart.jpg"], "name a .png file"),
        (["eor", "--plot", "no/such/folder/chart.png"], "does not exist"),
    ],
)
def test_bad_shoe_options(capsys, argv, message) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


def test_verify_on_a_depleted_shoe_fails_the_full_shoe_claim(capsys) -> None:
    code, out, _ = run(
        capsys,
        "verify",
        "seed-game",
        "--remove",
        "AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C " * 6,
        "--format",
        "json",
    )
    assert code == 1
    assert next(r for r in json.loads(out) if r["quantity"] == "max_rtp")["result"] == "FAIL"


# -- Depleted shoes: the whole analysis against the brute-force reference -------------------


@st.composite
def depleted(draw):
    counts = [[1] * 4 for _ in range(13)]
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    cells = [(r, s) for r in range(13) for s in range(4)]
    for r, s in rng.sample(cells, draw(st.integers(0, 40))):
        counts[r][s] = 0
    return counts


@FEW
@given(depleted())
def test_depleted_analysis_matches_reference(suit_counts) -> None:
    array = np.array(suit_counts, dtype=np.int64)
    shoe = Shoe(array.sum(axis=1), array)
    reference = naive.reference_counts(suit_counts)
    for result in analyze(shoe=shoe).results:
        assert result.expected_value == naive.expected_value(reference, result.bet.id, result.mode)


# -- Symbolic -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def expressions():
    paytable = seed_paytable()
    return {
        bet: expected_value_expression(paytable.bet(bet, "commission"))
        for bet in ("banker", "lucky_six")
    }


@FEW
@given(st.lists(st.integers(0, 40), min_size=10, max_size=10).filter(lambda v: sum(v) >= 6))
def test_symbolic_matches_enumerator(expressions, value_counts) -> None:
    ranks = np.array([*value_counts[1:], value_counts[0], 0, 0, 0], dtype=np.int64)  # 10s hold 0s
    analysis = analyze(shoe=Shoe(ranks), mode="commission", bets=list(expressions))
    for bet, expression in expressions.items():
        assert evaluate(expression, value_counts) == analysis.result(bet).expected_value


# -- Batch engine -------------------------------------------------------------------------


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


@pytest.mark.parametrize(
    ("compositions", "message"),
    [
        (np.zeros((2, 12), dtype=int), "(n, 13) or (n, 52)"),
        (np.full((2, 13), 0.5), "whole numbers"),
        (np.array([[4] * 12 + [-1]]), "row 0: a count is negative"),
        (np.array([[4] * 13, [0] * 12 + [5]]), "row 1: fewer than 6 cards"),
    ],
)
def test_batch_refuses_bad_compositions(compositions, message) -> None:
    with pytest.raises(AnalyzerError, match=message.replace("(", r"\(").replace(")", r"\)")):
        batch_expected_values(seed_paytable(), compositions)


# -- Effects of removal -------------------------------------------------------------------


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


def test_eor_cli_json_and_plot(tmp_path, capsys) -> None:
    plot = tmp_path / "eor.png"
    code, out, _ = run(
        capsys,
        "eor",
        "--decks",
        "1",
        "--bet",
        "tie",
        "--mode",
        "commission",
        "--format",
        "json",
        "--plot",
        str(plot),
    )
    assert code == 0
    rows = json.loads(out)
    assert [r["rank"] for r in rows] == [
        "A",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
        "J",
        "Q",
        "K",
    ]
    assert all({"bet", "rank", "delta_ev", "delta_ev_exact", "tag"} <= set(r) for r in rows)
    assert all(abs(float(Fraction(r["delta_ev_exact"])) - r["delta_ev"]) < 1e-15 for r in rows)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
