"""Card counting: tags, the break-even count, what each play bets on every column, the
gain by max round and the max-round advice."""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import AnalyzerError, Shoe, analyze, seed_paytable
from analyzer.game.cards import RANKS
from analyzer.paytables.model import restricted
from analyzer.runs.counting import (
    STRATEGIES,
    CountJob,
    advise,
    count_partition,
    count_summary,
    default_threshold,
    parse_tags,
    per_round_table,
)
from analyzer.runs.dealer import Procedure, deal_shoe, shuffled_shoe
from analyzer.runs.runner import partition_rng


def test_tags_per_rank() -> None:
    tags = parse_tags(" 2=1, 3=1,4=2,5 = 2, 6=1, 7=0, 8=-1, 9=-1,T=-2, J=-2,q=-2,K=-2")
    assert tags.tolist() == [0, 1, 1, 2, 2, 1, 0, -1, -1, -2, -2, -2, -2]
    assert parse_tags("").tolist() == [0] * 13
    assert parse_tags("A=1000", limit=1000)[0] == 1000


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A1", "write RANK=INTEGER"),
        ("Z=1", "unknown rank 'Z'"),
        ("10=1,T=2", "rank 10 is already tagged"),
        ("A=1.5", "'1.5' is not an integer"),
        ("A=", "'' is not an integer"),
        ("A=1001", "a tag is at most 1000 in size"),
    ],
)
def test_bad_tags(text, message) -> None:
    with pytest.raises(AnalyzerError, match="^bad tag .*" + message.replace(".", r"\.")):
        parse_tags(text)


def _effects(tags: list[int], slope: float) -> pd.DataFrame:
    """EORs exactly ``slope`` times the tags, 32 cards of each rank."""
    return pd.DataFrame(
        {"rank": list(RANKS), "cards": [32] * 13, "delta_ev": [slope * t for t in tags]}
    )


def test_default_threshold_is_the_break_even_true_count() -> None:
    tags = [1, 1, 1, 1, 0, 0, 0, 0, 0, -1, -1, -1, -1]
    # beta = 0.001 per unit of running count; at true count TC the EV is about
    # -0.01 + 0.001 * TC * 8, zero at TC = 1.25, rounded up to a tenth.
    threshold = default_threshold(_effects(tags, 0.001), np.array(tags), -0.01, 8)
    assert threshold == 1.3
    with pytest.raises(AnalyzerError, match="the tags are all equal"):
        default_threshold(_effects(tags, 0.001), np.zeros(13, dtype=np.int64), -0.01, 8)
    with pytest.raises(AnalyzerError, match="a higher count does not favour the bet"):
        default_threshold(_effects(tags, -0.001), np.array(tags), -0.01, 8)


def _job(columns=(("lucky_six", "no_commission"),), tags=None, threshold=0.5, decks=1):
    paytable = seed_paytable()
    tag_sets = thresholds = None
    if tags is not None:
        tag_sets = tuple(tuple(tags) for _ in columns)
        thresholds = tuple(threshold for _ in columns)
    return CountJob(
        restricted(paytable, columns), tuple(columns), Procedure(decks, 6), 3, tag_sets, thresholds
    )


def _partition(job, shoes_bets, shoes_gain, rounds, per_round_gain) -> dict:
    """A partition of one column by hand: per shoe bets and gains, and each shoe's gain by
    round number (shoes x by_round)."""
    out = {"rounds": np.array(rounds, dtype=np.int64)}
    for name in STRATEGIES:
        out[f"{name}_bets"] = np.array(shoes_bets, dtype=np.float64)[:, None]
        out[f"{name}_gain"] = np.array(shoes_gain, dtype=np.float64)[:, None]
    length = job.by_round
    out["round_count"] = np.zeros(length)
    for key in ("round_ev", "round_ev_sq", "round_positive", "round_bets"):
        out[key] = np.zeros((length, 1))
    capped = np.cumsum(np.array(per_round_gain, dtype=np.float64), axis=1)
    for play in job.plays:
        out[f"cap_{play}_gain"] = capped.sum(axis=0)[:, None]
        out[f"cap_{play}_gain_sq"] = (capped**2).sum(axis=0)[:, None]
        out[f"cap_{play}_bets"] = np.zeros((length, 1))
    return out


def _by_round(job, gains: dict[int, float]) -> list[float]:
    row = [0.0] * job.by_round
    for round_number, gain in gains.items():
        row[round_number] = gain
    return row


def test_summary_over_shoes_by_hand() -> None:
    job = _job()
    first = _partition(
        job, [2, 0], [0.5, 0.0], [10, 8], [_by_round(job, {1: 0.2, 3: 0.3}), _by_round(job, {})]
    )
    second = _partition(
        job, [4, 2], [-0.1, 0.4], [9, 11], [_by_round(job, {2: -0.1}), _by_round(job, {3: 0.4})]
    )
    for part in (first, second):
        part["round_count"][1:9] = 2.0  # rounds 1 to 8 reached by both shoes
    (summary,) = count_summary(job, [first, second], max_gain=0.01)
    assert summary["shoes"] == 4 and summary["rounds_per_shoe"] == 9.5
    strategy = summary["with_limit"]
    assert strategy["bet_frequency"] == pytest.approx(8 / 38, rel=1e-15)
    assert strategy["edge_when_bet"] == pytest.approx(0.8 / 8, rel=1e-14)
    assert strategy["units_per_shoe"] == pytest.approx(0.2, rel=1e-14)
    gains = np.array([0.5, 0.0, -0.1, 0.4])
    assert strategy["units_per_shoe_se"] == pytest.approx(gains.std(ddof=1) / 2, rel=1e-14)
    assert strategy["units_per_100_rounds"] == pytest.approx(80 / 38, rel=1e-14)
    assert summary["without_limit"] == strategy
    # With the cap at round 2 the four shoes gain 0.2, 0, -0.1 and 0.
    at_two = summary["by_max_round"][1]
    capped = np.array([0.2, 0.0, -0.1, 0.0])
    assert at_two["max_round"] == 2
    assert at_two["units_per_shoe"] == pytest.approx(capped.mean(), abs=1e-15)
    assert at_two["units_per_shoe_se"] == pytest.approx(capped.std(ddof=1) / 2, rel=1e-12)
    assert len(summary["by_max_round"]) == summary["last_round"] == 8


def test_per_round_table_by_hand() -> None:
    job = _job(columns=(("lucky_six", "no_commission"), ("tie", "no_commission")))
    part = {
        "round_count": np.array([0.0, 3.0, 3.0, 1.0, 0.0]),
        "round_ev": np.array([[0.0, 0], [-0.03, 0.3], [0.03, 0], [0.02, 0], [0.0, 0]]),
        # Lucky Six's EVs: -0.01 three times at round 1; 0, 0.01, 0.02 at round 2.
        "round_ev_sq": np.array([[0.0, 0], [3e-4, 0.03], [5e-4, 0], [4e-4, 0], [0.0, 0]]),
        "round_positive": np.array([[0.0, 0], [0.0, 3], [2.0, 0], [1.0, 0], [0.0, 0]]),
        "round_bets": np.array([[0.0, 0], [1.0, 0], [2.0, 0], [1.0, 0], [0.0, 0]]),
    }
    table = per_round_table(job, [part, part])
    six = table[table["bet"] == "lucky_six"]
    assert six["round"].tolist() == [1, 2, 3]  # rounds no shoe reached are left out
    assert six["shoes"].tolist() == [6, 6, 2]
    assert six["mean_ev"].tolist() == pytest.approx([-0.01, 0.01, 0.02], rel=1e-14)
    assert six["positive_ev_share"].tolist() == pytest.approx([0, 2 / 3, 1], rel=1e-14)
    # Standard errors over the shoes reaching each round: the same EV in every shoe has
    # none; round 2's six EVs (0, 0.01, 0.02 twice) have the sample deviation 0.00894.
    errors = six["mean_ev_se"].tolist()
    assert errors[0] == pytest.approx(0, abs=1e-9)
    assert errors[1] == pytest.approx(np.std([0, 0.01, 0.02] * 2, ddof=1) / np.sqrt(6), rel=1e-9)
    assert errors[2] == pytest.approx(0, abs=1e-9)  # two shoes, both 0.02
    assert six["bet_share_without_limit"].tolist() == pytest.approx([1 / 3, 2 / 3, 1])
    tie = table[table["bet"] == "tie"]
    assert tie["mean_ev"].tolist() == pytest.approx([0.1, 0, 0], abs=1e-15)
    assert set(table["mode"]) == {"no_commission"}


def _exact_rounds(job: CountJob, shoes: int) -> pd.DataFrame:
    """Every round of the partition's shoes and every column, from the exact analysis of
    the cards left: its shoe, number, EV, and the running count of the cards the counter
    has seen (the shown first card, then every card of the earlier rounds; burned cards
    stay hidden)."""
    rng = partition_rng(job.seed, 0)
    rows = []
    for shoe in range(shoes):
        cards = shuffled_shoe(rng, job.procedure.decks)
        rounds = deal_shoe(cards, job.procedure)
        first = int(rounds["start"][0])
        for record in rounds:
            start = int(record["start"])
            left = np.bincount(cards[start:], minlength=52).reshape(13, 4)
            exact = analyze(paytable=job.paytable, shoe=Shoe(left.sum(axis=1), left))
            for c, (bet, mode) in enumerate(job.columns):
                tags = np.zeros(13, dtype=np.int64) if job.tags is None else np.array(job.tags[c])
                rows.append(
                    {
                        "column": c,
                        "shoe": shoe,
                        "round": int(record["round"]),
                        "ev": float(exact.result(bet, mode).expected_value),
                        "seen": int(tags[cards[0] // 4] + tags[cards[first:start] // 4].sum()),
                        "decks_left": (len(cards) - start) / 52,
                    }
                )
    return pd.DataFrame(rows)


@pytest.mark.kernels
@pytest.mark.parametrize("tags", [None, (1, 1, 1, 1, 0, 0, 0, 0, 0, -1, -1, -1, -1)])
def test_a_partition_bets_what_the_exact_evs_say(tags) -> None:
    columns = (("lucky_six", "no_commission"), ("tie", "no_commission"))
    job = _job(columns, tags)
    result = count_partition(job, 0, 3)
    job.check(result, 3)
    rounds = _exact_rounds(job, 3)
    for c in range(len(columns)):
        of_column = rounds[rounds["column"] == c]
        # Perfect play bets exactly when the EV is positive; a linear count at a true count
        # of at least the threshold.
        perfect = of_column["ev"] > 0
        true_count = of_column["seen"] / of_column["decks_left"]
        wants = perfect if tags is None else true_count >= 0.5
        if c == 0:
            assert 0 < wants.sum() < len(of_column)  # it bets some rounds, not all
        per_shoe = of_column.assign(bets=wants, gain=of_column["ev"] * wants).groupby("shoe")
        assert result["rounds"].tolist() == per_shoe.size().tolist()
        for name in STRATEGIES:  # 1 deck: no round reaches the limit, 50
            assert result[f"{name}_bets"][:, c].tolist() == per_shoe["bets"].sum().tolist()
            assert np.allclose(result[f"{name}_gain"][:, c], per_shoe["gain"].sum(), atol=1e-12)
        by_round = of_column.assign(bets=wants, positive=perfect).groupby("round")
        played = by_round.size().index.to_numpy()
        assert result["round_count"][played].tolist() == by_round.size().tolist()
        assert np.allclose(result["round_ev"][played, c], by_round["ev"].sum(), atol=1e-12)
        squares = of_column.assign(square=of_column["ev"] ** 2).groupby("round")["square"]
        assert np.allclose(result["round_ev_sq"][played, c], squares.sum(), atol=1e-12)
        assert result["round_positive"][played, c].tolist() == by_round["positive"].sum().tolist()
        assert result["round_bets"][played, c].tolist() == by_round["bets"].sum().tolist()
        assert result["round_count"].sum() == len(of_column)
        # Per cap k: each shoe's gain over rounds 1 to k, summed and squared, and bets.
        for play, bets in (("perfect", perfect), ("count", true_count >= 0.5)):
            if play not in job.plays:
                continue
            table = of_column.assign(gain=of_column["ev"] * bets, bets=bets)
            table = table.pivot_table(index="shoe", columns="round", values=["gain", "bets"])
            for k in (1, 5, int(played[-1])):
                gain = table["gain"].loc[:, :k].sum(axis=1)
                assert result[f"cap_{play}_gain"][k, c] == pytest.approx(gain.sum(), abs=1e-12)
                assert result[f"cap_{play}_gain_sq"][k, c] == pytest.approx(
                    (gain**2).sum(), abs=1e-12
                )
                assert result[f"cap_{play}_bets"][k, c] == table["bets"].loc[:, :k].sum().sum()


def test_counting_every_bet_at_once_equals_each_alone() -> None:
    """The shoes are the same whatever is counted; every column's numbers too."""
    columns = (("lucky_six", "commission"), ("tie", "commission"), ("banker", "commission"))
    tags = (1, 1, 1, 1, 0, 0, 0, 0, 0, -1, -1, -1, -1)
    together = count_partition(_job(columns, tags, decks=8), 2, 4)
    for c, column in enumerate(columns):
        alone = count_partition(_job((column,), tags, decks=8), 2, 4)
        for key, array in alone.items():
            mine = together[key] if array.ndim == 1 else together[key][:, c : c + 1]
            assert np.allclose(mine, array, rtol=1e-13, atol=1e-13), (column, key)


def test_by_max_round_at_the_printed_cap_and_the_last_round() -> None:
    job = _job((("lucky_six", "commission"), ("tie", "commission")), decks=8)
    results = [count_partition(job, index, 6) for index in range(2)]
    for summary in count_summary(job, results, max_gain=0.01):
        curve = summary["by_max_round"]
        last = curve[-1]
        assert last["max_round"] == summary["last_round"]
        assert last["units_per_shoe"] == pytest.approx(
            summary["without_limit"]["units_per_shoe"], abs=1e-12
        )
        assert last["bet_frequency"] == pytest.approx(
            summary["without_limit"]["bet_frequency"], abs=1e-12
        )
        if summary["max_round"]:
            at_cap = curve[summary["max_round"] - 1]
            assert at_cap["units_per_shoe"] == pytest.approx(
                summary["with_limit"]["units_per_shoe"], abs=1e-12
            )
            assert at_cap["units_per_shoe_se"] == pytest.approx(
                summary["with_limit"]["units_per_shoe_se"], rel=1e-9, abs=1e-15
            )


def _curve(gains, errors) -> list[dict]:
    return [
        {"max_round": k + 1, "units_per_shoe": g, "units_per_shoe_se": e, "bet_frequency": 0.0}
        for k, (g, e) in enumerate(zip(gains, errors, strict=True))
    ]


def test_advice_by_hand() -> None:
    curve = _curve([0.0, 0.001, 0.004, 0.02, 0.5], [0.0, 0.001, 0.002, 0.01, 0.1])
    advice = advise(curve, 0.01, 4)
    # Round 3: 0.004 + 1.645 * 0.002 = 0.0073 is safe; round 4: 0.02 is not.
    assert advice["largest_safe_max_round"] == 3 and not advice["needs_no_limit"]
    assert advice["confidence"] == pytest.approx(NormalDist().cdf(0.006 / 0.002), rel=1e-12)
    assert advice["printed_max_round_is_safe"] is False
    assert advise(curve, 0.01, 2)["printed_max_round_is_safe"] is True
    nothing = advise(curve, -1.0, None)
    assert nothing["largest_safe_max_round"] is None and nothing["confidence"] is None
    everything = advise(curve, 1.0, None)
    assert everything["needs_no_limit"] and everything["printed_max_round_is_safe"]
    # A zero gain with no spread is safe with certainty; one shoe has no spread to judge.
    assert advise(_curve([0.0], [0.0]), 0.01, None)["confidence"] == 1.0
    assert advise(_curve([0.0], [None]), 0.01, None)["confidence"] is None


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(-0.05, 0.3), st.floats(0, 0.05)), min_size=1, max_size=30),
    st.floats(0.0001, 0.2),
    st.floats(0.0001, 0.2),
)
def test_advice_is_monotone_in_max_gain(points, low, high) -> None:
    """A higher level never advises a lower cap."""
    low, high = sorted((low, high))
    curve = _curve([g for g, _ in points], [e for _, e in points])
    caps = [advise(curve, level, None)["largest_safe_max_round"] or 0 for level in (low, high)]
    assert caps[0] <= caps[1]


def test_a_saved_partition_is_checked_before_it_is_trusted() -> None:
    job = _job()
    good = count_partition(job, 0, 2)
    job.check(good, 2)
    for change, message in (
        (lambda r: r.pop("round_bets"), "keys"),
        (lambda r: r.update(extra=np.zeros(2)), "keys"),
        (lambda r: r.update(rounds=r["rounds"] * 1.0), "rounds: float64"),
        (
            lambda r: r.update(with_limit_bets=np.zeros((3, 1))),
            r"with_limit_bets: float64 \(3, 1\)",
        ),
        (lambda r: r.update(round_ev=np.zeros((14, 1))), "round_ev"),
        (lambda r: r.update(cap_perfect_gain=np.zeros((job.by_round, 2))), "cap_perfect_gain"),
    ):
        bad = dict(good)
        change(bad)
        with pytest.raises(ValueError, match=message):
            job.check(bad, 2)
