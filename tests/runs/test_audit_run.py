"""An audit in saved partitions is the audit of one pass: the same findings (repeats and
rows out of order across partitions and logs), counts and tests, on local processes and
on Dask; an interrupted or damaged run resumes from what it saved."""

from __future__ import annotations

import copy
import math
import os
from itertools import pairwise

import pytest
from audit_logs import clean_rows, write_csv, write_parquet
from helpers import dask_cluster, run

from analyzer import load_paytable
from analyzer.errors import AnalyzerError
from analyzer.runs import audit_run
from analyzer.runs.audit_log import audit_log
from analyzer.runs.audit_run import audit_partitioned, partition_spans


@pytest.fixture(scope="module")
def seed_game():
    return load_paytable("seed-game")


@pytest.fixture(scope="module")
def logs(seed_game, tmp_path_factory):
    """Two logs of 4-deck shoes with faults: a mis-settled payout, a round out of order,
    a shoe dealt twice in the first log and one of its shoes again in the second."""
    folder = tmp_path_factory.mktemp("logs")
    rows = clean_rows(seed_game, 2400, decks=4, seed=3)
    rows[10]["pay:banker"] = "5"
    rows[300]["round"] = "77"
    rows += [dict(row, shoe="again") for row in rows if row["shoe"] == "S3"]
    other = clean_rows(seed_game, 900, decks=4, seed=4)
    other += [dict(row, shoe="twice") for row in rows if row["shoe"] == "S2"]
    return write_csv(folder / "a.csv", rows), write_parquet(folder / "b.parquet", other)


def same_audit(one, other) -> None:
    assert one.findings == other.findings and one.counts == other.counts
    assert (one.rounds, one.shoes, one.logs) == (other.rounds, other.shoes, other.logs)
    assert one.payouts_checked == other.payouts_checked
    if one.fit is None:
        assert other.fit is None
        return
    for a, b in zip(one.fit.tests, other.fit.tests, strict=True):
        assert (a.key, a.rounds, a.passed) == (b.key, b.rounds, b.passed)
        for x, y in ((a.observed, b.observed), (a.expected, b.expected), (a.p_value, b.p_value)):
            assert (x is None and y is None) or math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)
    for a, b in zip(one.fit.calibration, other.fit.calibration, strict=True):
        assert (a.outcome, a.low, a.high, a.rounds, a.observed) == (
            b.outcome, b.low, b.high, b.rounds, b.observed,
        )  # fmt: skip
        assert math.isclose(a.predicted, b.predicted, rel_tol=1e-12)
    assert one.fit.running.rounds[-1] == other.fit.running.rounds[-1]
    assert one.fit.running.observed[-1] == other.fit.running.observed[-1]


@pytest.mark.slow
@pytest.mark.parametrize("partition_rows", [97, 1000, 10_000])
def test_partitions_give_the_one_pass_audit(tmp_path, seed_game, logs, partition_rows) -> None:
    serial = audit_log(list(logs), seed_game, decks=4, fit=True)
    assert {f.check for f in serial.findings} >= {"payout", "order", "repeat"}
    assert [f.log for f in serial.findings if f.check == "repeat"] == [str(logs[0]), str(logs[1])]
    parted = audit_partitioned(
        logs, seed_game, 4, fit=True, partition_rows=partition_rows,
        work_dir=tmp_path / "runs", workers=1, progress=False,
    )  # fmt: skip
    same_audit(serial, parted)


@pytest.mark.slow
def test_spans_cover_each_log_and_end_open(logs) -> None:
    spans, sizes = partition_spans(tuple(map(str, logs)), 1000)
    for log in (0, 1):
        mine = [(first, stop) for index, first, stop in spans if index == log]
        assert mine[0][0] == 1 and mine[-1][1] is None
        assert all(stop == following for (_, stop), (following, _) in pairwise(mine))
    assert len(sizes) == len(spans) and all(size >= 1 for size in sizes)


@pytest.mark.slow
def test_two_processes_give_the_same_audit_and_a_rerun_reads_what_they_saved(
    tmp_path, seed_game, logs, monkeypatch
) -> None:
    options = dict(fit=True, partition_rows=1000, work_dir=tmp_path / "runs", progress=False)
    first = audit_partitioned(logs, seed_game, 4, workers=2, **options)
    same_audit(audit_log(list(logs), seed_game, decks=4, fit=True), first)
    # Resumed, no partition is audited again.
    calls = []
    real = audit_run.audit_partition
    monkeypatch.setattr(audit_run, "audit_partition", lambda *a: calls.append(a) or real(*a))
    again = audit_partitioned(logs, seed_game, 4, workers=1, resume=True, **options)
    assert calls == [] and again.findings == first.findings
    # A damaged and a missing partition are audited again, the rest read back.
    (folder,) = (tmp_path / "runs").iterdir()
    parts = sorted(folder.glob("part-*.npz"))
    parts[0].write_bytes(parts[0].read_bytes()[:200])
    parts[-1].unlink()
    resumed = audit_partitioned(logs, seed_game, 4, workers=1, resume=True, **options)
    assert sorted(call[1] for call in calls) == [0, len(parts) - 1]
    same_audit(first, resumed)


def test_a_log_that_changed_is_audited_again(tmp_path, seed_game) -> None:
    rows = clean_rows(seed_game, 400, decks=2, seed=8)
    path = write_csv(tmp_path / "log.csv", rows)
    options = dict(partition_rows=1000, work_dir=tmp_path / "runs", workers=1, progress=False)
    assert audit_partitioned([path], seed_game, 2, **options).total == 0
    bad = copy.deepcopy(rows)
    bad[5]["pay:tie"] = "7.5"  # never the tie's settlement
    write_csv(path, bad)
    result = audit_partitioned([path], seed_game, 2, resume=True, **options)
    assert [(f.check, f.row) for f in result.findings] == [("payout", 6)]
    assert len(list((tmp_path / "runs").iterdir())) == 2  # another run, beside the first


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_log_edited_in_place_keeping_its_size_and_time_is_audited_again(
    tmp_path, seed_game, suffix
) -> None:
    """A winner banker -> player (as long), the modification time put back: the log's
    size, inode and time are those of the audit saved, its content is not."""
    rows = clean_rows(seed_game, 1600, decks=2, seed=8)
    write = write_csv if suffix == ".csv" else write_parquet
    path = write(tmp_path / f"log{suffix}", rows)
    options = dict(partition_rows=500, work_dir=tmp_path / "runs", workers=1, progress=False)
    assert audit_partitioned([path], seed_game, 2, **options).total == 0
    before = path.stat()
    at = next(i for i in range(1500, len(rows)) if rows[i]["winner"] == "banker")
    bad = copy.deepcopy(rows)
    bad[at]["winner"] = "player"
    with path.open("r+b") as file:  # in place: the same inode
        file.write(write(tmp_path / f"bad{suffix}", bad).read_bytes())
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_ino, after.st_mtime_ns) == (
        before.st_size, before.st_ino, before.st_mtime_ns,
    )  # fmt: skip
    result = audit_partitioned([path], seed_game, 2, resume=True, **options)
    assert [(f.check, f.row) for f in result.findings] == [("winner", at + 1)]
    # The same content again (copied back, a new inode and time): its saved run is read.
    path.unlink()
    path.write_bytes(write(tmp_path / f"good{suffix}", rows).read_bytes())
    assert audit_partitioned([path], seed_game, 2, resume=True, **options).total == 0
    assert len(list((tmp_path / "runs").iterdir())) == 2


@pytest.mark.slow
def test_a_log_that_changes_while_it_is_audited_is_refused(
    tmp_path, seed_game, monkeypatch
) -> None:
    """Its digest was taken before: what the partitions read is not what it describes."""
    rows = clean_rows(seed_game, 1600, decks=2, seed=8)
    path = write_csv(tmp_path / "log.csv", rows)
    real = audit_run.audit_partition

    def editing(job, index, size):
        if index == 1:
            with path.open("ab") as file:
                file.write(b"\n")
        return real(job, index, size)

    monkeypatch.setattr(audit_run, "audit_partition", editing)
    options = dict(partition_rows=500, work_dir=tmp_path / "runs", workers=1, progress=False)
    with pytest.raises(AnalyzerError, match=f"^{path}: changed while it was audited"):
        audit_partitioned([path], seed_game, 2, **options)
    # What the partitions saved (of either content) is not kept under the first digest.
    assert not list((tmp_path / "runs").glob("*/part-*.npz"))


@pytest.mark.slow
def test_a_shoe_coming_back_in_a_later_partition_is_rows_out_of_order(tmp_path, seed_game):
    rows = clean_rows(seed_game, 1500, decks=2, seed=5)
    back = [row for row in rows if row["shoe"] == "S1"][:3]
    path = write_csv(tmp_path / "log.csv", rows + back)
    with pytest.raises(AnalyzerError) as serial:
        audit_log(path, seed_game, decks=2)
    with pytest.raises(AnalyzerError) as parted:
        audit_partitioned(
            [path], seed_game, 2, partition_rows=1000, work_dir=tmp_path / "r", workers=1,
            progress=False,
        )  # fmt: skip
    assert str(parted.value) == str(serial.value) and "rows out of order" in str(serial.value)


def _moved(rows: list[dict], shoe: str, take: slice, at: int) -> list[dict]:
    """The rows with some of one shoe's rows moved to ``at`` (they come back later)."""
    mine = [i for i, row in enumerate(rows) if row["shoe"] == shoe][take]
    moved = [rows[i] for i in mine]
    kept = [row for i, row in enumerate(rows) if i not in set(mine)]
    return kept[:at] + moved + kept[at:]


@pytest.mark.slow
@pytest.mark.parametrize("partition_rows", [1000, 1500, 2000, 2500, 10_000])
def test_the_first_wrong_row_is_said_whatever_the_partitions(
    tmp_path, seed_game, partition_rows
) -> None:
    # A shoe's last round moved into a later shoe, inside a partition: the one pass says
    # the moved row; so must every cut, whatever the partition meets first.
    rows = clean_rows(seed_game, 4000, decks=2, seed=5)
    moved = _moved(rows, "S1", slice(-1, None), 2700)
    # ... and, with rounds moved later still, a malformed row after them.
    later = _moved(rows, "S1", slice(-5, None), 3000)
    later[3500]["player_cards"] = "2S ZZ"
    for name, log in (("moved", moved), ("later", later)):
        path = write_csv(tmp_path / f"{name}.csv", log)
        with pytest.raises(AnalyzerError) as serial:
            audit_log(path, seed_game, decks=2)
        assert "rows out of order" in str(serial.value)
        with pytest.raises(AnalyzerError) as parted:
            audit_partitioned(
                [path], seed_game, 2, partition_rows=partition_rows,
                work_dir=tmp_path / "r", workers=1, progress=False,
            )  # fmt: skip
        assert str(parted.value) == str(serial.value), name


@pytest.mark.slow
def test_the_command_line_audits_in_partitions_as_in_one_pass(tmp_path, capsys, logs):
    one = run(capsys, "audit", *map(str, logs), "--decks", "4")
    parts = run(
        capsys, "audit", *map(str, logs), "--decks", "4", "--partition-rows", "1000",
        "--workers", "2", "--work-dir", str(tmp_path / "w"),
    )  # fmt: skip
    assert one == parts and one[0] == 0
    # A malformed row in a later partition: the one line a single pass gives.
    rows = clean_rows(load_paytable("seed-game"), 2500, decks=4, seed=3)
    rows[2200]["player_cards"] = "2S ZZ"
    path = write_csv(tmp_path / "bad.csv", rows)
    serial = run(capsys, "audit", str(path), "--decks", "4")
    parted = run(
        capsys, "audit", str(path), "--decks", "4", "--partition-rows", "1000",
        "--workers", "1", "--work-dir", str(tmp_path / "w"),
    )  # fmt: skip
    assert serial == parted and serial[0] == 2 and serial[2].count("\n") == 1
    # --work-dir alone asks for partitions too: a work folder that is a file is refused.
    (tmp_path / "a file").write_text("x", encoding="utf-8")
    code, out, err = run(capsys, "audit", str(path), "--work-dir", str(tmp_path / "a file"))
    assert (code, out) == (2, "") and err.count("\n") == 1 and "a file" in err


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_audit(tmp_path, seed_game, logs) -> None:
    with dask_cluster(tmp_path) as (address, _):
        on_dask = audit_partitioned(
            logs, seed_game, 4, fit=True, partition_rows=1000, work_dir=tmp_path / "d",
            scheduler=address, progress=False,
        )  # fmt: skip
    same_audit(audit_log(list(logs), seed_game, decks=4, fit=True), on_dask)
