"""Auditing logs in saved, resumable partitions, on local processes or a Dask cluster.

Each log is cut into partitions of about ``partition_rows`` rows at shoe boundaries: a
partition audits the shoes that begin in its rows, each whole (:func:`~analyzer.runs.
audit_log.read_log`'s ``span``), as a ``deferred`` :class:`~analyzer.analysis.audit.Audit`,
and hands back what it found and summed as JSON data
(:meth:`~analyzer.analysis.audit.Audit.partition_state`). Partitions run and are saved
as :func:`~analyzer.runs.runner.run_partitions` runs ``count``'s and ``simulate``'s: each
kept in the run's folder once finished, checked when read back, skipped by ``resume``.
The run's folder is named by everything the result depends on, each log's path and the
sha256 of its content among it (read in chunks before any partition is): a log that
changed is audited again, even one edited in place with its size and modification time
kept. A log that changes while it is audited is refused, and what was saved is removed.

The partitions are joined in log order (:meth:`~analyzer.analysis.audit.Audit.absorb`):
the findings, counts and tests are those of one pass over the same logs, repeats and
rows out of order found across partitions too; only the fit's float sums may differ in
their last bits (they are added in another order), and the running difference's points
are the partitions' own.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer.analysis.audit import Audit, AuditResult
from analyzer.analysis.audit_fit import DEFAULT_LEVEL
from analyzer.analysis.audit_groups import DEFAULT_CONFIDENCE, DEFAULT_DEVIATION, MIN_GROUP_ROUNDS
from analyzer.errors import AnalyzerError
from analyzer.paytables.model import Paytable
from analyzer.runs.audit_log import BLOCK_ROWS, check_logs, estimated_rounds, open_log, read_log

#: What a partition file holds: the partition's state as JSON text.
STATE = "state"
#: The layout of a partition's state; a change makes older partitions strangers (2: the
#: groups, stakes and monitoring added).
STATE_FORMAT = 2
#: Bytes of a log read at a time for its digest.
DIGEST_CHUNK = 1 << 20


@dataclass(frozen=True)
class AuditJob:
    """What every partition of one audit shares (plain data: it goes to workers)."""

    paths: tuple[str, ...]
    paytable: Paytable
    decks: int | None
    fit: bool
    level: float
    #: Per partition: (the log's index in ``paths``, first row, stop row or None).
    spans: tuple[tuple[int, int, int | None], ...]
    block_rows: int = BLOCK_ROWS
    #: The groups' and monitoring's options (:class:`~analyzer.analysis.audit.Audit`'s).
    min_rounds: int = MIN_GROUP_ROUNDS
    confidence: float = DEFAULT_CONFIDENCE
    deviation: float = DEFAULT_DEVIATION

    @property
    def grouping(self) -> dict:
        return {
            "min_rounds": self.min_rounds,
            "confidence": self.confidence,
            "deviation": self.deviation,
        }

    def log_name(self, index: int) -> str:
        """A log's name in findings: its path where several logs are audited."""
        return self.paths[index] if len(self.paths) > 1 else ""


def audit_partition(job: AuditJob, index: int, size: int) -> dict[str, np.ndarray]:
    """Audit partition ``index`` of ``job`` (``size``: its rows, about; for the bar)."""
    log, first, stop = job.spans[index]
    audit = Audit(
        job.paytable, job.decks, fit=job.fit, level=job.level, deferred=True, **job.grouping
    )
    audit.start_log(job.log_name(log))
    begun: list[tuple[str, int]] = []
    error = None
    try:
        blocks = read_log(job.paths[log], job.paytable, job.block_rows, (first, stop), begun)
        for block in blocks:
            audit.feed(block)
    except AnalyzerError as exc:  # kept, to be said in row order with the others' (absorb)
        error = str(exc)
    state = audit.partition_state(log, job.paths[log], begun, error)
    return {STATE: np.array(json.dumps(state, allow_nan=False))}


def check_state(result: dict[str, np.ndarray], size: int) -> None:
    """A saved partition's structure (as declared: its data is checked by its sha256):
    one text, the state (raises if it is not)."""
    if set(result) != {STATE} or result[STATE].shape != () or result[STATE].dtype.kind != "U":
        raise ValueError("not an audit partition")


def partition_spans(
    paths: tuple[str, ...], partition_rows: int
) -> tuple[list[tuple[int, int, int | None]], list[int]]:
    """Each log's partitions, (log, first row, stop row), the last open-ended, and their
    sizes in rows (the logs' estimated rows: a CSV row with quoted line ends counts
    more, and a partition past the end is empty)."""
    spans, sizes = [], []
    for log, path in enumerate(paths):
        rows = estimated_rounds(path)
        if rows is None:  # reading it will say what is wrong
            rows = 1
        starts = list(range(1, max(rows, 1) + 1, partition_rows))
        for j, first in enumerate(starts):
            last = j == len(starts) - 1
            spans.append((log, first, None if last else first + partition_rows))
            sizes.append(max(min(partition_rows, rows - first + 1), 1))
    return spans, sizes


def log_stamp(path: str) -> tuple[int, ...]:
    """What changes when a log is written (its ctime even when its mtime is put back)."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise AnalyzerError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def log_digests(paths: tuple[str, ...], progress: bool | None = None) -> list[str]:
    """The sha256 (hex) of each log's content, read :data:`DIGEST_CHUNK` bytes at a time
    (a progress bar of the bytes where ``progress``; None: on a terminal)."""
    from tqdm import tqdm

    from analyzer.progress import bar_options

    total = sum(log_stamp(path)[2] for path in paths)
    digests = []
    with tqdm(
        total=total, unit="B", unit_scale=True, desc="audit: digest of the logs",
        **bar_options(progress, leave=False),
    ) as bar:  # fmt: skip
        for path in paths:
            digest = hashlib.sha256()
            buffer = bytearray(DIGEST_CHUNK)
            view = memoryview(buffer)
            with open_log(Path(path)) as stream:
                try:
                    while read := stream.readinto(buffer):
                        digest.update(view[:read])
                        bar.update(read)
                except OSError as exc:
                    raise AnalyzerError(f"{path}: cannot read: {exc.strerror or exc}") from None
            digests.append(digest.hexdigest())
    return digests


def _identity(job: AuditJob, sizes: list[int], digests: list[str]) -> dict:
    logs = [
        [os.path.abspath(path), digest] for path, digest in zip(job.paths, digests, strict=True)
    ]
    return {
        "command": "audit",
        "format": STATE_FORMAT,
        "logs": logs,
        "paytable": job.paytable.fingerprint,
        "decks": job.decks,
        "fit": job.fit,
        "level": job.level,
        "spans": [list(span) for span in job.spans],
        "sizes": sizes,
        "block_rows": job.block_rows,
        **job.grouping,
    }


def audit_partitioned(
    paths: list[str] | tuple[str, ...],
    paytable: Paytable,
    decks: int | None = None,
    *,
    fit: bool = False,
    level: float = DEFAULT_LEVEL,
    partition_rows: int = 1_000_000,
    work_dir: str | Path | None = None,
    resume: bool = False,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    block_rows: int = BLOCK_ROWS,
    min_rounds: int = MIN_GROUP_ROUNDS,
    confidence: float = DEFAULT_CONFIDENCE,
    deviation: float = DEFAULT_DEVIATION,
) -> AuditResult:
    """:func:`~analyzer.runs.audit_log.audit_log` of ``paths`` in saved partitions of about
    ``partition_rows`` rows each (see the module's text), on ``workers`` local processes
    or the Dask ``scheduler``; ``resume`` keeps the partitions an interrupted run saved."""
    from analyzer.runs.runner import run_folder, run_partitions

    paths = tuple(str(path) for path in paths)
    check_logs(paths, paytable)
    spans, sizes = partition_spans(paths, partition_rows)
    job = AuditJob(
        paths, paytable, decks, fit, level, tuple(spans), block_rows, min_rounds, confidence,
        deviation,
    )  # fmt: skip
    stamps = [log_stamp(path) for path in paths]
    identity = _identity(job, sizes, log_digests(paths, progress))
    if work_dir is None:
        from analyzer.runs.kept import default_runs_folder

        work_dir = default_runs_folder()
    folder = run_folder(Path(work_dir), identity)
    results = run_partitions(
        audit_partition,
        job,
        sizes,
        folder,
        identity,
        resume=resume,
        scheduler=scheduler,
        workers=workers,
        progress=progress,
        description="audit",
        unit="rounds",
        check=check_state,
    )
    for path, stamp in zip(paths, stamps, strict=True):
        if log_stamp(path) != stamp:
            # Its partitions may have read either content: none is kept under the digest.
            shutil.rmtree(folder, ignore_errors=True)
            raise AnalyzerError(
                f"{path}: changed while it was audited: audit it again once it is written"
            )
    joined = Audit(paytable, decks, fit=fit, level=level, **job.grouping)
    for result in results:
        joined.absorb(json.loads(str(result[STATE])))
    return joined.result()


def run_audit(
    paths: list[str] | tuple[str, ...],
    paytable: Paytable,
    decks: int | None = None,
    *,
    fit: bool = True,
    level: float = DEFAULT_LEVEL,
    partition_rows: int | None = None,
    work_dir: str | Path | None = None,
    resume: bool = False,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    min_rounds: int = MIN_GROUP_ROUNDS,
    confidence: float = DEFAULT_CONFIDENCE,
    deviation: float = DEFAULT_DEVIATION,
) -> AuditResult:
    """Audit the logs at ``paths`` as one: in one pass in this process, or, where any
    partition option is given (``partition_rows``, ``work_dir``, ``resume``, ``workers``,
    ``scheduler``), in saved partitions (:func:`audit_partitioned`; ``partition_rows``
    None: :data:`~analyzer.runs.jobs.DEFAULT_PARTITION_ROWS`, ``work_dir`` None:
    :func:`~analyzer.runs.kept.default_runs_folder`). ``progress``: a bar of the rounds
    audited (None: only on a terminal). ``min_rounds``, ``confidence``, ``deviation``: the
    groups' and the monitoring's (:mod:`~analyzer.analysis.audit_groups`)."""
    grouping = {"min_rounds": min_rounds, "confidence": confidence, "deviation": deviation}
    from tqdm import tqdm

    from analyzer.progress import bar_options
    from analyzer.runs.audit_log import audit_log
    from analyzer.runs.jobs import DEFAULT_PARTITION_ROWS

    partitioned = (
        partition_rows is not None or workers is not None or scheduler is not None
        or resume or work_dir is not None
    )  # fmt: skip
    if partitioned:
        return audit_partitioned(
            paths, paytable, decks, fit=fit, level=level,
            partition_rows=partition_rows or DEFAULT_PARTITION_ROWS,
            work_dir=work_dir or None, resume=resume, workers=workers,
            scheduler=scheduler, progress=progress, **grouping,
        )  # fmt: skip
    estimates = [estimated_rounds(path) for path in paths]
    total = None if None in estimates else sum(estimates)
    # (leave=False: no bar is left above what the command says, an error line included)
    with tqdm(
        total=total,
        desc="audit",
        unit=" rounds",
        unit_scale=True,
        **bar_options(progress, leave=False),
    ) as bar:
        return audit_log(
            list(paths), paytable, decks, fit=fit, level=level, progress=bar.update, **grouping
        )
