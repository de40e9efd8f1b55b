"""The runs kept for --resume: where they go, listed, removed (and what is never removed)."""

from __future__ import annotations

import json
import os

import pytest

from analyzer.errors import AnalyzerError
from analyzer.runs.kept import default_runs_folder, kept_runs, remove_runs


def _run(folder, run_id: str, command: str = "simulate", sizes=(10, 5), saved: int = 2):
    path = folder / run_id
    path.mkdir(parents=True)
    record = {"command": command, "partitions": list(sizes), "paytable": {"name": "Game"}}
    (path / "run.json").write_text(json.dumps(record))
    for index in range(saved):
        (path / f"part-{index:05d}.npz").write_bytes(b"x" * 100)
    return path


def test_runs_go_to_the_users_cache_folder_never_the_current_one(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("BACCARAT_ODDS_CACHE", str(tmp_path / "chosen"))
    assert default_runs_folder() == tmp_path / "chosen" / "runs"
    for off in ("off", ""):  # the store of counts off: runs still go to the platform's cache
        monkeypatch.setenv("BACCARAT_ODDS_CACHE", off)
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
        assert default_runs_folder() == tmp_path / "xdg" / "baccarat-odds" / "runs"
    monkeypatch.delenv("BACCARAT_ODDS_CACHE")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_runs_folder() == tmp_path / "home" / ".cache" / "baccarat-odds" / "runs"


def test_kept_runs_are_the_folders_with_a_run_record(tmp_path) -> None:
    _run(tmp_path, "a" * 16, sizes=(10, 5), saved=2)
    _run(tmp_path, "b" * 16, command="audit", sizes=(1000,), saved=0)
    (tmp_path / "not-a-run").mkdir()  # no run.json
    (tmp_path / "not-a-run" / "notes.txt").write_text("mine")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "run.json").write_text("[not json")
    (tmp_path / "file.txt").write_text("x")
    runs = {run.id: run for run in kept_runs(tmp_path)}
    assert set(runs) == {"a" * 16, "b" * 16}
    first = runs["a" * 16]
    assert (first.command, first.paytable, first.shoes) == ("simulate", "Game", 15)
    assert (first.partitions, first.saved) == (2, 2) and first.bytes > 200
    assert runs["b" * 16].shoes is None  # an audit's partitions are rows, not shoes
    assert kept_runs(tmp_path / "missing") == []


def test_remove_takes_the_runs_named_and_nothing_else(tmp_path) -> None:
    keep, drop = _run(tmp_path, "a" * 16), _run(tmp_path, "b" * 16)
    (tmp_path / "mine").mkdir()
    removed = remove_runs(["b" * 16, "b" * 16], tmp_path)
    assert [run.id for run in removed] == ["b" * 16]
    assert keep.exists() and not drop.exists()
    remove_runs(None, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]  # not a run: kept


def test_an_unknown_id_removes_nothing(tmp_path) -> None:
    kept = _run(tmp_path, "a" * 16)
    with pytest.raises(AnalyzerError, match="no kept run 'zzz'"):
        remove_runs(["a" * 16, "zzz"], tmp_path)
    assert kept.exists()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="locks are POSIX")
def test_a_run_working_now_is_never_removed(tmp_path) -> None:
    import fcntl

    busy = _run(tmp_path, "a" * 16)
    descriptor = os.open(busy, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as run_partitions holds it
        with pytest.raises(AnalyzerError, match="is working now"):
            remove_runs(None, tmp_path)
        assert busy.exists()
    finally:
        os.close(descriptor)
    remove_runs(None, tmp_path)
    assert not busy.exists()
