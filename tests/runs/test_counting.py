"""Card counting against one bet: tags, the break-even count, and what each strategy bets."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyzer import AnalyzerError, Shoe, analyze, seed_paytable
from analyzer.game.cards import RANKS
from analyzer.paytables.model import restricted
from analyzer.runs.counting import (
    CountJob,
    check_count_partition,
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


def _partition(shoes_bets, shoes_gain, rounds) -> dict:
    out = {"rounds": np.array(rounds, dtype=np.int64)}
    for name in ("with_limit", "without_limit"):
        out[f"{name}_bets"] = np.array(shoes_bets, dtype=np.float64)
        out[f"{name}_gain"] = np.array(shoes_gain, dtype=np.float64)
    return out


def test_summary_over_shoes_by_hand() -> None:
    results = [_partition([2, 0], [0.5, 0.0], [10, 8]), _partition([4, 2], [-0.1, 0.4], [9, 11])]
    summary = count_summary(results)
    assert summary["shoes"] == 4 and summary["rounds_per_shoe"] == 9.5
    strategy = summary["with_limit"]
    assert strategy["bet_frequency"] == pytest.approx(8 / 38, rel=1e-15)
    assert strategy["edge_when_bet"] == pytest.approx(0.8 / 8, rel=1e-14)
    assert strategy["units_per_shoe"] == pytest.approx(0.2, rel=1e-14)
    gains = np.array([0.5, 0.0, -0.1, 0.4])
    assert strategy["units_per_shoe_se"] == pytest.approx(gains.std(ddof=1) / 2, rel=1e-14)
    assert strategy["units_per_100_rounds"] == pytest.approx(80 / 38, rel=1e-14)
    assert summary["without_limit"] == strategy


def test_per_round_table_by_hand() -> None:
    part = {
        "round_count": np.array([0.0, 3.0, 3.0, 1.0, 0.0]),
        "round_ev": np.array([0.0, -0.03, 0.03, 0.02, 0.0]),
        "round_positive": np.array([0.0, 0.0, 2.0, 1.0, 0.0]),
        "round_bets": np.array([0.0, 1.0, 2.0, 1.0, 0.0]),
    }
    table = per_round_table([part, part])
    assert table["round"].tolist() == [1, 2, 3]  # rounds no shoe reached are left out
    assert table["shoes"].tolist() == [6, 6, 2]
    assert table["mean_ev"].tolist() == pytest.approx([-0.01, 0.01, 0.02], rel=1e-14)
    assert table["positive_ev_share"].tolist() == pytest.approx([0, 2 / 3, 1], rel=1e-14)
    assert table["bet_share_without_limit"].tolist() == pytest.approx([1 / 3, 2 / 3, 1])


def _exact_rounds(job: CountJob, shoes: int) -> pd.DataFrame:
    """Every round of the partition's shoes, from the exact analysis of the cards left: its
    shoe, its number, its EV, and the running count of the cards the counter has seen (the
    shown first card, then every card of the earlier rounds; burned cards stay hidden)."""
    rng = partition_rng(job.seed, 0)
    bet = job.paytable.bets[0].id
    tags = np.zeros(13, dtype=np.int64) if job.tags is None else np.asarray(job.tags)
    rows = []
    for shoe in range(shoes):
        cards = shuffled_shoe(rng, job.procedure.decks)
        rounds = deal_shoe(cards, job.procedure)
        first = int(rounds["start"][0])
        for record in rounds:
            start = int(record["start"])
            left = np.bincount(cards[start:], minlength=52).reshape(13, 4)
            exact = analyze(paytable=job.paytable, shoe=Shoe(left.sum(axis=1), left))
            rows.append(
                {
                    "shoe": shoe,
                    "round": int(record["round"]),
                    "ev": float(exact.result(bet).expected_value),
                    "seen": int(tags[cards[0] // 4] + tags[cards[first:start] // 4].sum()),
                    "decks_left": (len(cards) - start) / 52,
                }
            )
    return pd.DataFrame(rows)


@pytest.mark.kernels
@pytest.mark.parametrize("tags", [None, (1, 1, 1, 1, 0, 0, 0, 0, 0, -1, -1, -1, -1)])
def test_a_partition_bets_what_the_exact_evs_say(tags) -> None:
    paytable = restricted(seed_paytable(), "lucky_six", "no_commission")
    job = CountJob(paytable, Procedure(1, 6), seed=3, tags=tags, threshold=0.5)
    result = count_partition(job, 0, 3)
    check_count_partition(result, 3)
    rounds = _exact_rounds(job, 3)
    # Perfect play bets exactly when the EV is positive; a linear count at a true count of at
    # least the threshold.
    true_count = rounds["seen"] / rounds["decks_left"]
    wants = rounds["ev"] > 0 if tags is None else true_count >= 0.5
    assert 0 < wants.sum() < len(rounds)  # the strategy bets some rounds, not all
    per_shoe = rounds.assign(bets=wants, gain=rounds["ev"] * wants).groupby("shoe")
    assert result["rounds"].tolist() == per_shoe.size().tolist()
    for name in ("with_limit", "without_limit"):  # 1 deck: no round reaches the limit, 50
        assert result[f"{name}_bets"].tolist() == per_shoe["bets"].sum().tolist()
        assert np.allclose(result[f"{name}_gain"], per_shoe["gain"].sum(), rtol=0, atol=1e-12)
    by_round = rounds.assign(bets=wants, positive=rounds["ev"] > 0).groupby("round")
    played = by_round.size().index.to_numpy()
    assert result["round_count"][played].tolist() == by_round.size().tolist()
    assert np.allclose(result["round_ev"][played], by_round["ev"].sum(), rtol=0, atol=1e-12)
    assert result["round_positive"][played].tolist() == by_round["positive"].sum().tolist()
    assert result["round_bets"][played].tolist() == by_round["bets"].sum().tolist()
    assert result["round_count"].sum() == len(rounds)


def test_a_saved_partition_is_checked_before_it_is_trusted() -> None:
    good = _partition([1, 0], [0.1, 0.0], [9, 9])
    good |= {key: np.zeros(15) for key in ("round_count", "round_ev", "round_positive")}
    good["round_bets"] = np.zeros(15)
    check_count_partition(good, 2)
    for change, message in (
        (lambda r: r.pop("round_bets"), "keys"),
        (lambda r: r.update(extra=np.zeros(2)), "keys"),
        (lambda r: r.update(rounds=r["rounds"] * 1.0), "rounds: float64"),
        (lambda r: r.update(with_limit_bets=np.zeros(3)), r"with_limit_bets: float64 \(3,\)"),
        (lambda r: r.update(round_ev=np.zeros(14)), "round_ev"),
        (lambda r: r.update(round_count=np.zeros(0), round_ev=np.zeros(0)), "round_"),
    ):
        bad = dict(good)
        change(bad)
        with pytest.raises(ValueError, match=message):
            check_count_partition(bad, 2)
