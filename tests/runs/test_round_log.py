"""The log of the rounds ``simulate`` deals: what audit reads, clean, the same rounds the
simulation settled, the same log for the same seed, written a chunk at a time."""

from __future__ import annotations

import csv
from fractions import Fraction

import numpy as np
import pytest

from analyzer import load_paytable
from analyzer.analysis.audit import payout_column
from analyzer.errors import AnalyzerError
from analyzer.paytables.settle import Settlement
from analyzer.runs import round_log
from analyzer.runs.audit_log import audit_log, read_log
from analyzer.runs.dealer import Procedure
from analyzer.runs.round_log import log_columns, log_format, simulate_logged
from analyzer.runs.simulate import SimulationJob, settle_partition, simulate_partition

SIZES = [60, 60, 30]


@pytest.fixture(scope="module")
def seed_game():
    return load_paytable("seed-game")


@pytest.fixture(scope="module")
def job(seed_game):
    return SimulationJob(seed_game, Procedure(decks=2, cut_card=14), seed=5, logged=True)


@pytest.fixture(scope="module")
def logged(job, tmp_path_factory):
    """The run's results and its log, as CSV and as Parquet."""
    folder = tmp_path_factory.mktemp("log")
    results = simulate_logged(job, SIZES, folder / "log.csv", "csv", progress=False)
    again = simulate_logged(job, SIZES, folder / "log.parquet", "parquet", progress=False)
    return results, again, folder / "log.csv", folder / "log.parquet"


def _read(path, paytable):
    blocks = list(read_log(path, paytable))
    return {
        name: np.concatenate([getattr(b, name) for b in blocks])
        for name in ("shoes", "rounds", "cards", "player_score", "banker_score", "winner")
    } | {
        "payouts": {
            key: np.concatenate([b.payouts[key] for b in blocks]) for key in blocks[0].payouts
        },
        "burns": [len(b.burns) for b in blocks],
    }


def test_a_clean_log_audits_clean_as_csv_and_as_parquet(logged, seed_game) -> None:
    _, _, csv_path, parquet_path = logged
    for path in (csv_path, parquet_path):
        result = audit_log(path, seed_game, decks=2)
        assert result.total == 0, result.findings[:3]
        assert result.shoes == sum(SIZES)
        assert len(result.payouts_checked) == sum(1 for _ in seed_game.offered(seed_game.modes))
        assert not result.not_checkable


def test_the_log_holds_the_rounds_simulate_settled(logged, job, seed_game) -> None:
    """The results are simulate's own, partition by partition, and the log's payouts
    add up to each bet's simulated total (per unit paid) and rounds bet."""
    results, again, csv_path, parquet_path = logged
    for index, size in enumerate(SIZES):
        plain = simulate_partition(
            SimulationJob(job.paytable, job.procedure, job.seed), index, size
        )
        for key in plain:
            assert np.array_equal(plain[key], results[index][key]), key
            assert np.array_equal(plain[key], again[index][key]), key
    rounds = _read(csv_path, seed_game)
    assert len(rounds["rounds"]) == sum(int(r["rounds"].sum()) for r in results)
    assert sum(rounds["burns"]) == sum(SIZES)  # each shoe's first round has its burn
    totals = np.concatenate([r["totals"] for r in results]).sum(axis=0)
    counts = np.concatenate([r["counts"] for r in results]).sum(axis=0)
    for b, (bet, mode) in enumerate(seed_game.offered(seed_game.modes)):
        pay = rounds["payouts"][(bet.id, mode)]
        fee = float(Settlement(bet).fee)
        assert np.count_nonzero(~np.isnan(pay)) == counts[b]
        assert np.nansum(pay) / (1 + fee) == pytest.approx(totals[b], rel=1e-12, abs=1e-9)
    # Parquet reads back as the same rounds.
    other = _read(parquet_path, seed_game)
    for name in ("rounds", "cards", "player_score", "banker_score", "winner"):
        assert np.array_equal(rounds[name], other[name]), name
    assert list(rounds["shoes"]) == list(other["shoes"])
    for key, values in rounds["payouts"].items():
        assert np.array_equal(values, other["payouts"][key], equal_nan=True), key


def test_the_header_and_a_round(logged, seed_game) -> None:
    _, _, csv_path, _ = logged
    with csv_path.open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    header = list(rows[0])
    assert header[:8] == list(round_log.FIXED_COLUMNS)
    assert "specials" not in header
    assert header[8] == payout_column("player", seed_game.modes[0], seed_game) == "pay:player"
    assert "pay:banker:no_commission" in header
    first = rows[0]
    assert (first["shoe"], first["round"]) == ("1", "1")
    assert first["burn"] and not rows[1]["burn"]
    burn = first["burn"].split()
    shown = burn[0][:-1]
    value = 10 if shown in ("10", "J", "Q", "K") else 1 if shown == "A" else int(shown)
    assert len(burn) == 1 + value
    assert first["winner"] in ("player", "banker", "tie")
    assert all(2 <= len(row["player_cards"].split()) <= 3 for row in rows)
    # Shoes numbered from 1 over the run, across partitions.
    assert [int(r["shoe"]) for r in rows][-1] == sum(SIZES)
    assert {r["pay:banker"] for r in rows} == {"0.95", "-1", "0"}


def test_a_bet_past_its_max_round_is_not_logged(seed_game, tmp_path) -> None:
    assert seed_game.bet("player_bonus", seed_game.modes[0]).max_round == 40
    job = SimulationJob(seed_game, Procedure(decks=8), seed=1, logged=True)
    simulate_logged(job, [2], tmp_path / "log.csv", progress=False)
    with (tmp_path / "log.csv").open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    late = [r for r in rows if int(r["round"]) > 40]
    assert late and all(r["pay:player_bonus"] == "" for r in late)
    assert all(r["pay:player_bonus"] != "" for r in rows if int(r["round"]) <= 40)


def test_same_seed_same_log_and_another_seed_another(job, tmp_path) -> None:
    first = simulate_logged(job, [20, 5], tmp_path / "a.csv", progress=False)
    second = simulate_logged(job, [20, 5], tmp_path / "b.csv", progress=False)
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert all(np.array_equal(x["totals"], y["totals"]) for x, y in zip(first, second, strict=True))
    other = SimulationJob(job.paytable, job.procedure, seed=6, logged=True)
    simulate_logged(other, [20, 5], tmp_path / "c.csv", progress=False)
    assert (tmp_path / "a.csv").read_bytes() != (tmp_path / "c.csv").read_bytes()
    simulate_logged(job, [20, 5], tmp_path / "a.parquet", "parquet", progress=False)
    simulate_logged(job, [20, 5], tmp_path / "b.parquet", "parquet", progress=False)
    import pyarrow.parquet as pq

    assert pq.read_table(tmp_path / "a.parquet").equals(pq.read_table(tmp_path / "b.parquet"))


def test_rows_are_written_a_chunk_at_a_time_to_the_same_log(job, tmp_path, monkeypatch) -> None:
    simulate_logged(job, [10], tmp_path / "whole.csv", progress=False)
    simulate_logged(job, [10], tmp_path / "whole.parquet", "parquet", progress=False)
    monkeypatch.setattr(round_log, "CHUNK_ROWS", 7)
    simulate_logged(job, [10], tmp_path / "chunks.csv", progress=False)
    simulate_logged(job, [10], tmp_path / "chunks.parquet", "parquet", progress=False)
    assert (tmp_path / "whole.csv").read_bytes() == (tmp_path / "chunks.csv").read_bytes()
    import pyarrow.parquet as pq

    chunked = pq.ParquetFile(tmp_path / "chunks.parquet")
    assert chunked.metadata.num_row_groups > 10  # a row group per chunk
    assert pq.read_table(tmp_path / "whole.parquet").equals(chunked.read())


def test_multiplied_bets_log_the_special_cards_and_the_simulated_payouts(tmp_path) -> None:
    """A bet paid by random multipliers: each round's special cards are logged (audit
    does not read them: the payouts are reported not checkable), and the payouts add up
    to the simulated totals, the fee paid."""
    paytable = load_paytable("golden-wealth-baccarat").with_unknowns(
        {"a": Fraction(2, 5), "b": Fraction(3, 10), "c": Fraction(1, 5)}
    )
    job = SimulationJob(paytable, Procedure(decks=2), seed=3, logged=True)
    results = simulate_logged(job, [15, 15], tmp_path / "gw.csv", progress=False)
    assert "specials" in log_columns(job)
    with (tmp_path / "gw.csv").open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    values = {float(v) for v, _ in paytable.multipliers.values}
    with_specials = [r for r in rows if r["specials"]]
    assert with_specials
    for row in with_specials:
        dealt = (row["player_cards"] + " " + row["banker_cards"]).split()
        for token in row["specials"].split():
            card, multiplier = token.split(":")
            assert card in dealt and float(multiplier) in values
    totals = np.concatenate([r["totals"] for r in results]).sum(axis=0)
    for b, (bet, mode) in enumerate(paytable.offered(paytable.modes)):
        pay = np.array([float(r[payout_column(bet.id, mode, paytable)] or "nan") for r in rows])
        fee = float(Settlement(bet).fee)
        assert np.nansum(pay) / (1 + fee) == pytest.approx(totals[b], rel=1e-12, abs=1e-9)
    result = audit_log(tmp_path / "gw.csv", paytable, decks=2)
    assert result.total == 0
    assert {(bet_id, mode) for bet_id, mode, _ in result.not_checkable} == {
        (bet.id, mode) for bet, mode in paytable.offered(paytable.modes) if bet.multiplied
    }


def test_settle_partition_keeps_no_rounds_unless_asked(job) -> None:
    result, kept = settle_partition(job, 0, 3)
    assert kept is None and set(result) == {"totals", "counts", "squares", "rounds"}
    _, kept = settle_partition(job, 0, 3, keep_rounds=True)
    assert len(kept.burns) == 3 and kept.cards.shape == (int(result["rounds"].sum()), 6)
    assert kept.factors is None


def test_the_estimate_of_a_partition_counts_its_rounds_when_logged(job) -> None:
    plain = SimulationJob(job.paytable, job.procedure, job.seed)
    assert job.partition_bytes(100) > plain.partition_bytes(100) * 5
    assert job.identity == plain.identity  # the same result either way


def test_the_format_is_the_suffix() -> None:
    assert log_format("a/rounds.CSV") == "csv" and log_format("r.parquet") == "parquet"
    with pytest.raises(AnalyzerError, match=r"a \.csv or \.parquet file"):
        log_format("rounds.txt")
