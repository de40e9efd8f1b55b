"""Running work in independent, seeded partitions: locally or on a Dask cluster.

Each partition is a pure function of its parameters and index (its random numbers come
from ``SeedSequence(seed, spawn_key=(index,))``), so partitions can run anywhere, in any
order. Each finished partition is written to the run's folder at once (a temporary file,
then a rename); ``resume`` skips those already there, so an interrupted run picks up where
it stopped, and merging in partition order makes the result identical to an uninterrupted
run with the same seed.

A saved partition is trusted only when it proves to be one: beside its arrays, the
``.npz`` file holds a JSON entry (``__meta__``) with the run's identity (a hash of its
parameters), the program version (:func:`program_version`), the partition's index and
size, and a sha256 of its arrays (each one's name, dtype, shape and bytes). A file that
does not match in every respect, does not load without pickles, or fails the task's
structure ``check`` is run again. While a run works it holds an exclusive lock on its
folder, so a second run of the same command is refused instead of deleting the first
one's partitions.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import json
import logging
import multiprocessing
import os
import shutil
import signal
import socket
import stat
import struct
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, CancelledError, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from analyzer.errors import AnalyzerError, tell
from analyzer.files import write_atomically, write_text_atomically
from analyzer.interrupts import Interrupted, interrupts_polled
from analyzer.progress import bar_options
from analyzer.version import package_version

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: runs are not locked
    fcntl = None  # type: ignore[assignment]

Result = dict[str, np.ndarray]

#: The entry of a partition file that describes it (a JSON string).
META = "__meta__"
#: Seconds allowed to reach a Dask scheduler and receive its handshake.
SCHEDULER_TIMEOUT = 10.0
#: A Dask handshake is a few hundred bytes; a peer announcing more is not a scheduler.
_MAX_HANDSHAKE = 1 << 20
_PR_SET_PDEATHSIG = 1


class _Stopped(Exception):
    """The run cannot go on (a save failed, the scheduler was lost); partitions are saved."""


def partition_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def run_identity(parameters: dict[str, Any]) -> str:
    """The sha256 (hex) of everything a run's result depends on."""
    text = json.dumps(parameters, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def run_folder(base: Path, parameters: dict[str, Any]) -> Path:
    """The folder of a run: named by a hash of everything its result depends on."""
    return base / run_identity(parameters)[:16]


@functools.cache
def program_version() -> str:
    """The package version and a digest of the ``analyzer`` package's source files.

    The digest changes with any edit of the code, so partitions that other code saved
    (even under the same version number) are never mixed into a result.
    """
    version = package_version()
    package = Path(__file__).resolve().parents[1]  # the analyzer package
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    # (A local version label's parts are joined by dots: "0+unknown.1a2b...".)
    return f"{version}{'.' if '+' in version else '+'}{digest.hexdigest()[:16]}"


def result_checksum(result: Result) -> str:
    """The sha256 (hex) of a result: every array's name, dtype, shape and bytes."""
    digest = hashlib.sha256()
    for name in sorted(result):
        array = np.ascontiguousarray(result[name])
        header = json.dumps([name, array.dtype.str, list(array.shape)]).encode()
        digest.update(len(header).to_bytes(8, "little") + header)
        digest.update(array.tobytes())
    return digest.hexdigest()


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _saved_partitions(count: int) -> str:
    return f"{count} saved partition" + ("" if count == 1 else "s")


def _remove(path: Path) -> None:
    """Remove a file, a link or a whole folder found where a file should be."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def _partition_path(folder: Path, index: int) -> Path:
    return folder / f"part-{index:05d}.npz"


def _save(path: Path, result: Result, meta: dict[str, Any]) -> None:
    entries = {**result, META: np.array(json.dumps(meta, sort_keys=True))}
    write_atomically(path, lambda temporary: np.savez(temporary, **entries))


def _load(
    path: Path, meta: dict[str, Any], check: Callable[[Result, int], None] | None
) -> Result | None:
    """The partition saved at ``path`` if it is exactly the one ``meta`` describes, else
    None (it is then run again)."""
    try:
        # Only a regular file: a folder fails to load, and a FIFO would block forever.
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        # An open file, not a path: np.load leaks the file it opened when a zip is damaged.
        with path.open("rb") as stream, np.load(stream, allow_pickle=False) as data:
            # Nothing is read before its header is: a tampered file declaring huge
            # arrays is turned away without the memory they would take.
            entry = declared_entry(data, META)
            if entry.dtype.kind != "U" or entry.shape != () or entry.itemsize > _MAX_META:
                return None
            saved = json.loads(str(data[META][()]))
            if {key: value for key, value in saved.items() if key != "sha256"} != meta:
                return None
            if check is not None:
                declared = {key: declared_entry(data, key) for key in data.files if key != META}
                check(declared, meta["size"])
            result = {key: data[key] for key in data.files if key != META}
        if saved != {**meta, "sha256": result_checksum(result)}:
            return None
        return result
    except Exception:  # not loadable, wrong keys, shapes or dtypes: run it again
        return None


#: The most bytes a partition's description may take (it is a few hundred).
_MAX_META = 1 << 16


def declared_entry(data: Any, key: str) -> np.ndarray:
    """What the ``.npz`` entry ``key`` declares (its dtype and shape), as an array that
    takes no memory; its data is not read."""
    with data.zip.open(f"{key}.npy") as member:
        version = np.lib.format.read_magic(member)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(member)
        elif version == (2, 0):
            shape, _, dtype = np.lib.format.read_array_header_2_0(member)
        else:
            raise ValueError(f"{key}: .npy format {version}")
    if dtype.hasobject:
        raise ValueError(f"{key}: objects")
    return np.broadcast_to(np.zeros((), dtype=dtype), shape)


def lock_run_folder(folder: Path) -> int:
    """Create ``folder``, lock it for this run and return the descriptor holding the lock.

    The lock is taken on the folder itself (which works on a read-only folder too) and
    ends when the descriptor is closed, or when the process dies.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if fcntl is None:  # pragma: no cover - not POSIX: no lock, nothing to hold
            return -1
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise AnalyzerError(f"{folder}: cannot use it as a run folder: {_reason(exc)}") from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise AnalyzerError(
            f"{folder}: another run is using this run folder (the same command is still "
            "running); let it finish, then run with --resume"
        ) from None
    except OSError as exc:
        os.close(descriptor)
        raise AnalyzerError(f"{folder}: cannot lock the run folder: {_reason(exc)}") from None
    return descriptor


def _prepare(folder: Path, parameters: dict[str, Any]) -> None:
    """Under the lock: clear what a killed run left, and record the run's parameters
    (rewritten only when they differ).

    Saved partitions are never deleted up front: a run that does not resume runs each
    again, and it stays until the new run saves its own in its place, so a run
    interrupted early loses none of them.
    """
    for leftover in folder.glob(".tmp-*"):  # a run killed while saving
        with contextlib.suppress(OSError):  # a read-only folder keeps them; harmless
            _remove(leftover)
    record = folder / "run.json"
    text = json.dumps(parameters, sort_keys=True, default=str, indent=1)
    try:
        current = record.read_text(encoding="utf-8") if record.is_file() else None
    except (OSError, UnicodeDecodeError):
        current = None
    if current != text:
        try:
            if record.is_dir() and not record.is_symlink():
                shutil.rmtree(record)
            write_text_atomically(record, text)
        except OSError as exc:
            raise AnalyzerError(f"{folder}: cannot write run.json: {_reason(exc)}") from None


def _make_room(folder: Path, rejected: list[Path], todo: int, total: int) -> None:
    """Before any work: make sure partitions can be saved, and remove rejected files."""
    try:
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".tmp-")
        os.close(handle)
        os.unlink(probe)
        for path in rejected:
            _remove(path)
    except OSError as exc:
        raise AnalyzerError(
            f"{folder}: cannot save partitions here: {_reason(exc)} "
            f"({todo} of {total} partitions still to run)"
        ) from None


def run_partitions(
    task: Callable[[Any, int, int], Result],
    job: Any,
    sizes: list[int],
    folder: Path,
    parameters: dict[str, Any],
    *,
    resume: bool = False,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: bool | None = None,
    description: str = "partitions",
    unit: str = "partitions",
    check: Callable[[Result, int], None] | None = None,
) -> list[Result]:
    """Run ``task(job, i, sizes[i])`` for every partition ``i``; results in partition order.

    Parameters
    ----------
    task, job
        A module-level function and what it works on (plain, picklable objects: they go
        to worker processes or a Dask cluster as they are).
    sizes
        Units (e.g. shoes) per partition: the task deals them, the progress bar counts
        them, and ``check`` receives them.
    folder, parameters
        The run's folder and everything its result depends on (``run_folder(base,
        parameters)`` as a rule): saved partitions are matched against their hash.
    resume
        Keep the valid partitions saved in ``folder`` and run the rest; without it, every
        partition is run again, each saved one replaced only when its new one is saved.
    scheduler
        A Dask scheduler's address, ``tcp://HOST:PORT``; None runs locally.
    check
        ``check(result, size)`` raises if a loaded result's keys, shapes or dtypes are not
        those of a partition of that size; such a file is run again.

    Raises
    ------
    AnalyzerError
        The folder cannot be used or is in use by another run, the scheduler cannot be
        reached, a save fails or a worker dies (the message says how many partitions are
        saved and to resume).
    Interrupted
        Ctrl-C; finished partitions are saved.
    """
    address = None if scheduler is None else scheduler_address(scheduler)
    if address is not None:  # before any folder is made: an unreachable one leaves nothing
        deadline = time.monotonic() + SCHEDULER_TIMEOUT
        _probe_scheduler(scheduler, *address, deadline)
    identity = run_identity(parameters)
    version = program_version()

    def meta(index: int) -> dict[str, Any]:
        return {
            "run": identity,
            "program": version,
            "index": index,
            "size": int(sizes[index]),
        }

    lock = lock_run_folder(folder)
    results: list[Result | None] = [None] * len(sizes)
    bar = None

    def finished(index: int, result: Result) -> None:
        path = _partition_path(folder, index)
        try:
            _save(path, result, {**meta(index), "sha256": result_checksum(result)})
        except OSError as exc:
            raise _Stopped(f"cannot save partition {index}: {_reason(exc)}") from None
        results[index] = result
        bar.update(sizes[index])

    def saved() -> str:
        done = sum(result is not None for result in results)
        # Without resume, partitions of an earlier run stay until replaced.
        earlier = sum(
            results[i] is None and os.path.lexists(_partition_path(folder, i))
            for i in range(len(sizes))
        )
        also = f" (and {earlier} more in the folder, which --resume checks)" if earlier else ""
        return (
            f"{done} of {len(sizes)} partitions are saved in {folder}{also}; "
            "run the same command with --resume to finish"
        )

    try:
        _prepare(folder, parameters)
        rejected = []
        for index in range(len(sizes) if resume else 0):
            path = _partition_path(folder, index)
            if os.path.lexists(path):
                results[index] = _load(path, meta(index), check)
                if results[index] is None:
                    rejected.append(path)
        todo = [i for i, result in enumerate(results) if result is None]
        if todo:
            _make_room(folder, rejected, len(todo), len(sizes))
        if rejected:
            tell(
                f"note: running {_saved_partitions(len(rejected))} in {folder} again: "
                "damaged, or from another run or program version"
            )
        bar = tqdm(
            total=sum(sizes),
            initial=sum(sizes) - sum(sizes[i] for i in todo),
            unit=" " + unit,
            desc=description,
            **bar_options(progress),  # None: as the process says (a terminal only)
            smoothing=0.1,
        )
        if not todo:
            pass
        elif address is not None:
            _run_dask(task, job, sizes, todo, scheduler, deadline, finished)
        elif (workers or os.cpu_count() or 1) == 1 or len(todo) == 1:
            for index in todo:
                finished(index, task(job, index, sizes[index]))
        else:
            count = min(workers or os.cpu_count() or 1, len(todo))
            _run_processes(task, job, sizes, todo, count, finished, lock)
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted: {saved()}") from None
    except BrokenProcessPool:
        raise AnalyzerError(
            f"a worker process died (killed, or out of memory?): {saved()}"
        ) from None
    except _Stopped as exc:
        raise AnalyzerError(f"{exc}; {saved()}") from None
    finally:
        if bar is not None:
            bar.close()
        if lock >= 0:
            os.close(lock)
    return results  # type: ignore[return-value]


def _worker_started(parent: int | None, lock: int | None) -> None:
    """Pool initializer: the main process handles Ctrl-C, and workers die with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # SIGTERM (from the main process, or at its death) ends a worker quietly, whatever
    # handler the main process had when it forked this one.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if lock is not None:
        # A forked worker shares the run folder's lock; it must end with the main process.
        with contextlib.suppress(OSError):
            os.close(lock)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, ctypes.c_ulong(signal.SIGTERM))
        except (OSError, AttributeError):  # no prctl: orphans finish their partition
            return
    if parent is not None and os.getppid() != parent:  # the parent died before prctl
        os._exit(1)


def _run_processes(task, job, sizes, todo, workers, finished, lock) -> None:
    forked = multiprocessing.get_start_method() == "fork"
    pool = ProcessPoolExecutor(
        max_workers=workers,
        initializer=_worker_started,
        # Only a forked worker has the main process as parent and the lock's descriptor.
        initargs=(os.getpid(), lock if lock >= 0 else None) if forked else (None, None),
    )
    try:
        # Ctrl-C is taken between waits, never inside the pool's calls: raised in the
        # middle of submit() or wait() it could leave a lock held, and shutting the pool
        # down then waits forever (seen about once in 40 interrupts).
        with interrupts_polled() as stop_if_asked:
            pending = {pool.submit(task, job, i, sizes[i]): i for i in todo}
            while pending:
                done, _ = wait(pending, timeout=0.05, return_when=FIRST_COMPLETED)
                stop_if_asked()
                _take_finished(done, pending, finished)
    except BaseException:
        _stop_workers(pool)
        raise
    pool.shutdown()


def _take_finished(done, pending, finished) -> None:
    """Save the finished partitions (in index order); then raise a failed one's error."""
    failed = None
    for future in sorted(done, key=pending.__getitem__):
        index = pending.pop(future)
        if future.exception() is None:  # saved even when another one failed
            finished(index, future.result())
        elif failed is None:
            failed = future
    if failed is not None:
        failed.result()


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stop the pool at once: queued partitions are cancelled, running ones killed."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:  # pragma: no cover
        terminate()
        return
    # Before Python 3.14 there is no public way to stop running workers: shutdown() only
    # cancels queued work and then waits for the partitions in progress, which can take
    # minutes after a Ctrl-C or a failed save. So the worker processes are terminated.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def scheduler_address(text: str) -> tuple[str, int]:
    """Check a Dask scheduler's address, ``tcp://HOST:PORT``; (host, port).

    Only plain TCP is supported: TLS needs certificates that cannot be given here, and an
    in-process scheduler cannot be reached from the command line.
    """
    try:
        parts = urllib.parse.urlsplit(text.strip())
        port = parts.port
    except ValueError:  # e.g. a port that is not a number or out of range
        parts, port = None, None
    if (
        parts is None
        or parts.scheme != "tcp"
        or not parts.hostname
        or not port
        or parts.username is not None
        or parts.path
        or parts.query
        or parts.fragment
    ):
        raise AnalyzerError(
            f"--scheduler {text!r}: give the Dask scheduler's address as tcp://HOST:PORT"
        )
    host = parts.hostname
    try:
        host.encode("idna")  # a name a resolver can take: labels of 1 to 63 characters
    except UnicodeError:
        raise AnalyzerError(f"--scheduler {text[:80]!r}: not a valid host name") from None
    return host, port


def _receive(connection: socket.socket, size: int, deadline: float) -> bytes:
    data = bytearray()
    while len(data) < size:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        connection.settimeout(left)
        chunk = connection.recv(min(size - len(data), 65536))
        if not chunk:
            raise ConnectionError("the connection was closed before a Dask handshake")
        data += chunk
    return bytes(data)


def _probe_scheduler(scheduler: str, host: str, port: int, deadline: float) -> None:
    """Refuse a peer that is not a Dask scheduler before ``distributed`` talks to it.

    A Dask server sends its handshake as soon as it accepts a connection: a length (8
    bytes) and that many bytes. ``distributed`` itself waits for it without a timeout and
    allocates whatever the first 8 bytes say, so a silent listener would hang the run and
    a service's banner would ask for exabytes.
    """

    def fail(why: str) -> AnalyzerError:
        return AnalyzerError(f"cannot reach the Dask scheduler at {scheduler}: {why}")

    try:
        wait_at_most = max(deadline - time.monotonic(), 0.1)
        with socket.create_connection((host, port), timeout=wait_at_most) as connection:
            (length,) = struct.unpack("Q", _receive(connection, 8, deadline))
            if not 0 < length <= _MAX_HANDSHAKE:
                raise fail("the service there does not speak the Dask protocol")
            _receive(connection, length, deadline)
    except TimeoutError:
        raise fail(f"no Dask handshake within {SCHEDULER_TIMEOUT:g} s") from None
    except OSError as exc:
        raise fail(_reason(exc)) from None
    except UnicodeError:  # a host name the resolver refuses
        raise fail("not a valid host name") from None


def _run_dask(task, job, sizes, todo, scheduler, deadline, finished) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError:  # pragma: no cover - distributed is a dependency
        raise AnalyzerError("--scheduler needs dask.distributed installed") from None
    with _quiet_dask_logs():
        try:
            client = Client(scheduler, timeout=f"{max(deadline - time.monotonic(), 1.0):.1f}s")
        except Exception as exc:  # anything the peer provokes is one line, not a traceback
            why = " ".join(str(exc).split()) or type(exc).__name__
            raise AnalyzerError(f"cannot reach the Dask scheduler at {scheduler}: {why}") from None
        with client:
            futures = {client.submit(task, job, i, sizes[i], pure=False): i for i in todo}
            try:
                for future in as_completed(futures):
                    try:
                        result = future.result()
                    except (OSError, TimeoutError, CancelledError) as exc:
                        raise _Stopped(f"the Dask cluster failed: {_dask_reason(exc)}") from None
                    except Exception as exc:
                        if type(exc).__name__ != "KilledWorker":  # a bug in a task: its trace
                            raise
                        raise _Stopped(f"the Dask cluster failed: {_dask_reason(exc)}") from None
                    finished(futures[future], result)
            except BaseException:
                with contextlib.suppress(Exception):
                    client.cancel(list(futures))
                raise


@contextlib.contextmanager
def _quiet_dask_logs() -> Iterator[None]:
    """Dask logs a lost scheduler or worker on stderr as it happens; the run then says
    what failed in one line of its own, so during the run only critical logs pass."""
    # Dask's configuration sets levels on some child loggers too (distributed.client...).
    names = [
        name
        for name in [*logging.root.manager.loggerDict, "distributed", "dask"]
        if name.split(".")[0] in ("distributed", "dask")
    ]
    loggers = [logging.getLogger(name) for name in dict.fromkeys(names)]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _dask_reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."
