"""The runs kept on disk: where they go, what each holds, and removing them.

``simulate``, ``count`` and ``audit`` save each finished partition of a run in the run's
folder (:func:`analyzer.runs.runner.run_folder`: named by a digest of everything its
result depends on) so that ``--resume`` takes up an interrupted run. By default those
folders live in the per-user cache folder (:func:`analyzer.files.user_cache_folder`,
``runs/`` in it), never in the folder a command was run from; ``--work-dir`` chooses
another. ``baccarat-odds cache`` lists them and removes them. A run folder is told by its
``run.json`` (the parameters the run recorded); nothing else in the folder is removed.
An exact ``dealt`` run with ``--work-dir`` keeps its passes the same way (its folder's
``run.json`` says ``dealt --exact``; its partitions are its passes, a checkpoint of a pass
partway, up to 1.3 GB for one deck, counted in its size).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from analyzer.errors import AnalyzerError
from analyzer.files import user_cache_folder

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: runs are not locked
    fcntl = None  # type: ignore[assignment]

__all__ = ["KeptRun", "default_runs_folder", "kept_runs", "remove_runs"]

#: The file that marks a run's folder (the parameters the run recorded).
RUN_RECORD = "run.json"
#: The command of an exact ``dealt`` run's folder: its passes (``prime-P.npz`` each, a
#: group of primes a pass) and the checkpoint of a pass partway.
EXACT_DEALT = "dealt --exact"


def default_runs_folder() -> Path:
    """Where runs are kept without ``--work-dir``: ``runs/`` in the per-user cache folder
    (``$BACCARAT_ODDS_CACHE`` when set, and not ``off``)."""
    chosen = os.environ.get("BACCARAT_ODDS_CACHE")
    if chosen is not None and chosen.strip().lower() in ("", "off"):
        chosen = None  # the store of counts is off; runs still need a folder to resume
    return user_cache_folder(chosen) / "runs"


@dataclass(frozen=True)
class KeptRun:
    """One kept run: its folder's name (the run's id), what it was, what it holds."""

    id: str
    folder: Path
    command: str
    paytable: str
    shoes: int | None
    partitions: int
    saved: int
    bytes: int
    modified: datetime

    def as_record(self) -> dict[str, object]:
        """The run as JSON-ready fields."""
        return {
            "id": self.id,
            "folder": str(self.folder),
            "command": self.command,
            "paytable": self.paytable,
            "shoes": self.shoes,
            "partitions": self.partitions,
            "saved_partitions": self.saved,
            "bytes": self.bytes,
            "modified": self.modified.isoformat(timespec="seconds"),
        }


def _size(folder: Path) -> tuple[int, int, float]:
    """(bytes, saved partitions, latest modification time) of a run's folder."""
    total, saved, latest = 0, 0, 0.0
    for path in folder.rglob("*"):
        with contextlib.suppress(OSError):
            info = path.lstat()
            if path.is_file() and not path.is_symlink():
                total += info.st_size
                saved += path.name.startswith("part-")
            latest = max(latest, info.st_mtime)
    return total, saved, latest


def _read_record(folder: Path) -> dict | None:
    try:
        record = json.loads((folder / RUN_RECORD).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) else None


def _paytable_name(record: dict) -> str:
    paytable = record.get("paytable")
    if isinstance(paytable, dict):
        return str(paytable.get("name", "-"))
    return "-"


def _exact_passes(record: dict) -> list[list[int]]:
    """The primes of each pass an exact ``dealt`` run's ``run.json`` lists."""
    passes = record.get("passes")
    if not isinstance(passes, list):
        return []
    return [[p for p in group if isinstance(p, int)] for group in passes if isinstance(group, list)]


def kept_runs(folder: Path | None = None) -> list[KeptRun]:
    """Every run kept under ``folder`` (default :func:`default_runs_folder`), newest first.

    A subfolder is a run when it holds a readable ``run.json``; anything else there is
    not a run and is left out (and never removed)."""
    folder = default_runs_folder() if folder is None else Path(folder)
    if not folder.is_dir():
        return []
    runs = []
    for entry in sorted(folder.iterdir()):
        if not entry.is_dir() or entry.is_symlink():
            continue
        record = _read_record(entry)
        if record is None:
            continue
        sizes = record.get("partitions")
        partitions = sizes if isinstance(sizes, list) else []
        shoes = sum(n for n in partitions if isinstance(n, int)) if partitions else None
        total, saved, latest = _size(entry)
        if record.get("command") == EXACT_DEALT:
            partitions, shoes = _exact_passes(record), None
            saved = sum(
                all((entry / f"prime-{p}.npz").is_file() for p in group) for group in partitions
            )
        runs.append(
            KeptRun(
                id=entry.name,
                folder=entry,
                command=str(record.get("command", "-")),
                paytable=_paytable_name(record),
                shoes=shoes if record.get("command") != "audit" else None,
                partitions=len(partitions),
                saved=saved,
                bytes=total,
                modified=datetime.fromtimestamp(latest, UTC),
            )
        )
    return sorted(runs, key=lambda run: (run.modified, run.id), reverse=True)


def _in_use(folder: Path) -> bool:
    """Is a run working in ``folder`` now (it holds the folder's lock)?"""
    if fcntl is None:  # pragma: no cover - not POSIX
        return False
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(descriptor)
    return False


def remove_runs(ids: list[str] | None, folder: Path | None = None) -> list[KeptRun]:
    """Remove the kept runs ``ids`` (None: every kept run) under ``folder``; the runs
    removed. An id that names no kept run, or a run working now, is refused before
    anything is removed (one :class:`AnalyzerError`)."""
    runs = kept_runs(folder)
    by_id = {run.id: run for run in runs}
    if ids is None:
        chosen = runs
    else:
        unknown = [run_id for run_id in ids if run_id not in by_id]
        if unknown:
            where = default_runs_folder() if folder is None else folder
            raise AnalyzerError(f"no kept run {unknown[0]!r} in {where} (see: cache list)")
        chosen = [by_id[run_id] for run_id in dict.fromkeys(ids)]
    busy = [run.id for run in chosen if _in_use(run.folder)]
    if busy:
        raise AnalyzerError(f"run {busy[0]} is working now: stop it first, or leave it")
    for run in chosen:
        try:
            shutil.rmtree(run.folder)
        except OSError as exc:
            raise AnalyzerError(f"cannot remove {run.folder}: {exc.strerror or exc}") from None
    return chosen
