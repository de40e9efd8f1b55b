"""Fault injection for long runs: damaged partitions, two runs at once, read-only and full
folders, killed workers and processes, hostile Dask schedulers.

Each fault ends in the documented way (a result, or one line on stderr with exit status 2
or 130), and ``--resume`` afterwards gives the result of an undisturbed run.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from helpers import dask_cluster, run

from analyzer.cli.main import main
from analyzer.runs import runner
from analyzer.runs.runner import META, _load, result_checksum

CLI = [sys.executable, "-m", "analyzer"]
SMALL = [
    *("count", "--bet", "lucky_six", "--shoes", "40", "--partition-size", "10", "--seed", "3"),
    *("--format", "json", "--no-progress", "--workers", "1"),
]
# Long enough to be caught running (200 partitions), short enough to finish in seconds.
BIG = [
    *("count", "--bet", "lucky_six", "--perfect", "--shoes", "8000", "--partition-size", "40"),
    *("--seed", "5", "--format", "json", "--no-progress"),
]
#: Seconds after which a refusal that should come at once is taken for a hang.
HANG = 120
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def _main(*argv: str) -> tuple[int, str, str]:
    """The CLI in-process, for module fixtures (which cannot use capsys)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> tuple[str, Path]:
    """The undisturbed SMALL run: its output and its work dir (copy it before changing)."""
    work = tmp_path_factory.mktemp("small")
    code, out, err = _main(*SMALL, "--work-dir", str(work))
    assert code == 0 and _no_warnings(err) == "", err
    return out, work


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> str:
    """The output of the undisturbed BIG run."""
    code, out, err = _main(*BIG, "--workers", "1", "--work-dir", str(tmp_path_factory.mktemp("b")))
    assert code == 0 and _no_warnings(err) == "", err
    return out


def _folder(work: Path) -> Path:
    (folder,) = work.iterdir()
    return folder


def _mtimes(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in folder.glob("part-*.npz")}


def _one_line(err: str) -> None:
    err = _no_warnings(err)
    assert err.count("\n") == 1 and "Traceback" not in err, err


def _no_warnings(err: str) -> str:
    """Standard error less the warnings of a short run (a count of few shoes warns that a
    bet's figures rest on few rounds): what is left must be nothing, or the one error."""
    return "".join(
        line
        for line in err.splitlines(keepends=True)
        if not line.startswith("baccarat-odds: warning: ")
    )


# --- damaged partitions -------------------------------------------------------------


def _entries(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {key: data[key] for key in data.files}


def _write(path: Path, entries: dict[str, np.ndarray]) -> None:
    with path.open("wb") as stream:
        np.savez(stream, **entries)


def _forge(path: Path, change: Callable[[dict], None], **meta: object) -> None:
    """Change a partition's arrays and write a consistent checksum for them (and ``meta``)."""
    entries = _entries(path)
    described = json.loads(str(entries.pop(META)))
    change(entries)
    described.update(sha256=result_checksum(entries), **meta)
    _write(path, {**entries, META: np.array(json.dumps(described))})


def _number_changed(path: Path) -> None:  # the checksum is left as it was
    entries = _entries(path)
    entries["with_limit_gain"] = entries["with_limit_gain"] + np.eye(1, 10)[0]
    _write(path, entries)


def _plus_one(entries: dict) -> None:
    entries["with_limit_gain"] = entries["with_limit_gain"] + 1


def _directory(path: Path) -> None:
    path.unlink()
    path.mkdir()
    (path / "inside").write_text("x")


def _pickled(path: Path) -> None:
    entries = _entries(path)
    entries["rounds"] = np.array([object()] * 10, dtype=object)
    _write(path, entries)


TAMPERING = {
    "number changed, checksum kept": _number_changed,
    "checksum recomputed, other run": lambda p: _forge(p, _plus_one, run="0" * 64),
    "checksum recomputed, other version": lambda p: _forge(p, _plus_one, program="0.0.1+x"),
    "other index": lambda p: shutil.copy(p.with_name("part-00001.npz"), p),
    "other size": lambda p: _forge(p, lambda e: None, size=9),
    "key missing": lambda p: _forge(p, lambda e: e.pop("round_bets")),
    "key added": lambda p: _forge(p, lambda e: e.update(extra=np.zeros(10))),
    "shape wrong": lambda p: _forge(p, lambda e: e.update(rounds=e["rounds"][:9])),
    "round arrays of two lengths": lambda p: _forge(
        p, lambda e: e.update(round_ev=e["round_ev"][:-1])
    ),
    "dtype wrong": lambda p: _forge(p, lambda e: e.update(rounds=e["rounds"] * 1.0)),
    "no description": lambda p: _write(p, {k: v for k, v in _entries(p).items() if k != META}),
    "description not JSON": lambda p: _write(p, {**_entries(p), META: np.array("{")}),
    "pickled object": _pickled,
    "directory in its place": _directory,
    "garbage bytes": lambda p: p.write_bytes(np.random.default_rng(1).bytes(5000)),
    "empty": lambda p: p.write_bytes(b""),
    "truncated": lambda p: p.write_bytes(p.read_bytes()[:3000]),
}


@pytest.mark.parametrize("tamper", TAMPERING.values(), ids=TAMPERING.keys())
def test_tampered_partition_is_run_again(tmp_path, capsys, small, tamper) -> None:
    reference, saved = small
    work = tmp_path / "w"
    shutil.copytree(saved, work)
    folder = _folder(work)
    before = _mtimes(folder)
    tamper(folder / "part-00002.npz")
    code, out, err = run(capsys, *SMALL, "--work-dir", str(work), "--resume")
    assert code == 0 and out == reference
    _one_line(err)
    assert (
        err.startswith("baccarat-odds: note: running 1 saved partition in") and str(folder) in err
    )
    after = _mtimes(folder)
    assert after.pop("part-00002.npz") != before.pop("part-00002.npz")  # run again
    assert after == before  # the others were trusted as saved
    code, again, err = run(capsys, *SMALL, "--work-dir", str(work), "--resume")
    assert (code, again, _no_warnings(err)) == (0, reference, "")  # now a valid partition


SIMULATE = [
    *("simulate", "--shoes", "20", "--partition-size", "10", "--seed", "3"),
    *("--format", "json", "--no-progress", "--workers", "1"),
]
SIMULATE_TAMPERING = {
    "number changed, checksum kept": lambda p: _write(
        p, {**_entries(p), "totals": _entries(p)["totals"] + 1}
    ),
    "a bet's column missing": lambda p: _forge(
        p, lambda e: e.update(squares=np.ascontiguousarray(e["squares"][:, 1:]))
    ),
    "rounds as floats": lambda p: _forge(p, lambda e: e.update(rounds=e["rounds"] * 1.0)),
}


@pytest.mark.parametrize("tamper", SIMULATE_TAMPERING.values(), ids=SIMULATE_TAMPERING.keys())
def test_tampered_simulation_partition_is_run_again(tmp_path, capsys, tamper) -> None:
    work = tmp_path / "w"
    code, reference, _ = run(capsys, *SIMULATE, "--work-dir", str(work))
    assert code == 0
    tamper(_folder(work) / "part-00001.npz")
    code, out, err = run(capsys, *SIMULATE, "--work-dir", str(work), "--resume")
    assert (
        code == 0
        and out == reference
        and err.startswith("baccarat-odds: note: running 1 saved partition")
    )


def test_rerun_without_resume_runs_again_and_keeps_the_work(
    tmp_path, capsys, monkeypatch, small
) -> None:
    """A run without --resume over saved work runs every partition again, and replaces
    each saved one only with its new one: interrupted before any is done, it loses none."""
    reference, saved = small
    work = tmp_path / "w"
    shutil.copytree(saved, work)
    folder = _folder(work)
    leftover = folder / ".tmp-0123456789ab.npz"  # as a run killed while saving leaves
    leftover.write_bytes(b"partial")
    before = {path.name: path.stat().st_mtime_ns for path in folder.glob("part-*.npz")}
    code, out, err = run(capsys, *SMALL, "--work-dir", str(work))
    assert code == 0 and out == reference
    assert _no_warnings(err) == ""  # the saved ones are run again, quietly: an error stays one line
    assert not leftover.exists()
    after = {path.name: path.stat().st_mtime_ns for path in folder.glob("part-*.npz")}
    assert after.keys() == before.keys()
    assert all(after[name] != before[name] for name in before)  # each one written anew

    # Interrupted before any partition is done, the rerun leaves every saved one.
    def interrupted(*_) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr("analyzer.runs.counting.count_partition", interrupted)  # count imports it
        code, out, err = run(capsys, *SMALL, "--work-dir", str(work))
    assert code == 130 and err == (
        f"baccarat-odds: interrupted: 0 of 4 partitions are saved in {folder} (and 4 more in "
        "the folder, which --resume checks); run the same command with --resume to finish\n"
    )
    assert _mtimes(folder) == after  # every saved partition is still there, untouched
    code, out, err = run(capsys, *SMALL, "--work-dir", str(work), "--resume")
    assert (code, out, _no_warnings(err)) == (0, reference, "")


# --- work dir problems ----------------------------------------------------------------


def _refuse_writes(monkeypatch, folder: Path, code: int, text: str) -> None:
    """Make every write under ``folder`` fail with ``code`` (for this process only)."""
    inside = str(folder.resolve())

    def guarded(function, writes=lambda *a, **k: True):
        def call(path, *args, **kwargs):
            if str(Path(os.fspath(path)).resolve()).startswith(inside) and writes(*args):
                raise OSError(code, text, os.fspath(path))
            return function(path, *args, **kwargs)

        return call

    creating = os.O_WRONLY | os.O_RDWR | os.O_CREAT
    monkeypatch.setattr(os, "open", guarded(os.open, lambda flags, *_: flags & creating))
    for name in ("unlink", "remove", "rmdir", "mkdir", "replace", "rename"):
        monkeypatch.setattr(os, name, guarded(getattr(os, name)))


def _mount(*args: str | Path) -> bool:
    """Run ``mount`` (root only); whether it worked."""
    if not ROOT:
        return False
    try:
        return subprocess.run(["mount", *args], capture_output=True).returncode == 0
    except OSError:  # no mount command
        return False


@contextlib.contextmanager
def read_only(folder: Path, monkeypatch) -> Iterator[None]:
    """``folder`` read-only: a read-only bind mount as root, chmod otherwise; where neither
    works, writes under it are refused by patching ``os`` (in this process)."""
    if _mount("--bind", folder, folder):
        try:
            subprocess.run(["mount", "-o", "remount,bind,ro", folder], check=True)
            yield
        finally:
            subprocess.run(["umount", folder], check=True)
        return
    if ROOT:  # root writes through any mode bits
        _refuse_writes(monkeypatch, folder, errno.EROFS, "Read-only file system")
        yield
        return
    modes = {path: path.stat().st_mode for path in [folder, *folder.rglob("*")] if path.is_dir()}
    for path in modes:
        path.chmod(0o555)
    try:
        yield
    finally:
        for path, mode in modes.items():
            path.chmod(mode)


def test_finished_run_reads_back_from_a_read_only_folder(tmp_path, capsys, monkeypatch, small):
    reference, saved = small
    work = tmp_path / "w"
    shutil.copytree(saved, work)
    folder = _folder(work)
    unfinished = tmp_path / "u"
    shutil.copytree(saved, unfinished)
    (_folder(unfinished) / "part-00001.npz").unlink()
    with read_only(work, monkeypatch), read_only(unfinished, monkeypatch):
        code, out, err = run(capsys, *SMALL, "--work-dir", str(work), "--resume")
        assert (code, out, _no_warnings(err)) == (
            0,
            reference,
            "",
        )  # nothing to write: nothing written
        code, out, err = run(capsys, *SMALL, "--work-dir", str(work))
        assert code == 2 and out == "" and f"{folder}: cannot save" in err
        assert "4 of 4 partitions still to run" in err
        _one_line(err)
        code, out, err = run(capsys, *SMALL, "--work-dir", str(unfinished), "--resume")
        assert code == 2 and out == "" and f"{_folder(unfinished)}: cannot save" in err
        assert "1 of 4 partitions still to run" in err
        _one_line(err)
        code, out, err = run(capsys, *SMALL, "--work-dir", str(work / "new"))
        assert code == 2 and out == "" and "cannot use it as a run folder" in err
        _one_line(err)
    assert len(_mtimes(folder)) == 4


@pytest.mark.parametrize(
    "work", ["file", "/proc/baccarat-odds-test", "file/below"], ids=["file", "proc", "below"]
)
def test_unusable_work_dir_is_one_line(tmp_path, capsys, work) -> None:
    (tmp_path / "file").write_text("not a folder")
    if work.startswith("/proc") and not Path("/proc/self").exists():
        pytest.skip("no /proc here")
    code, out, err = run(capsys, *SMALL, "--work-dir", str(tmp_path / work))
    assert code == 2 and out == "" and "cannot use it as a run folder" in err
    _one_line(err)


@contextlib.contextmanager
def small_tmpfs(path: Path, size: str) -> Iterator[bool]:
    """A tmpfs of ``size`` at ``path`` (True), or a plain folder where none can be mounted."""
    path.mkdir()
    mounted = _mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", path)
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", path], check=True)


def test_full_disk_while_saving_is_one_line_then_resumes(tmp_path, capsys, monkeypatch) -> None:
    args = [*SMALL, "--shoes", "200"]  # 20 partitions of about 8 kB
    code, reference, _ = run(capsys, *args, "--work-dir", str(tmp_path / "reference"))
    assert code == 0
    with small_tmpfs(tmp_path / "disk", "1m") as mounted:
        work = tmp_path / "disk" / "w"
        filler = tmp_path / "disk" / "filler"
        if mounted:  # leave room for run.json and a few partitions only
            free = os.statvfs(tmp_path / "disk")
            filler.write_bytes(b"\0" * (free.f_bavail * free.f_frsize - 64 * 1024))
        else:
            real_savez, calls = np.savez, []

            def savez(*args, **kwargs):
                calls.append(1)
                if len(calls) > 5:
                    raise OSError(errno.ENOSPC, "No space left on device")
                real_savez(*args, **kwargs)

            monkeypatch.setattr(np, "savez", savez)
        code, out, err = run(capsys, *args, "--work-dir", str(work))
        assert code == 2 and out == ""
        _one_line(err)
        assert "No space left on device" in err and "--resume" in err
        saved = int(err.split(" of 20 partitions are saved")[0].rsplit(" ", 1)[1])
        folder = _folder(work)
        assert 1 <= saved < 20 and len(_mtimes(folder)) == saved
        assert not list(folder.glob(".tmp-*"))  # no partial file left behind
        if mounted:
            filler.unlink()
        else:
            monkeypatch.setattr(np, "savez", real_savez)
        code, out, err = run(capsys, *args, "--work-dir", str(work), "--resume")
        assert (code, out, _no_warnings(err)) == (0, reference, "")


# --- two runs, killed processes -------------------------------------------------------


def _start(work: Path, *extra: str, session: bool = False) -> subprocess.Popen:
    return subprocess.Popen(
        [*CLI, *BIG, "--work-dir", str(work), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=session,
    )


def _wait_for_partitions(work: Path, count: int, process: subprocess.Popen) -> None:
    deadline = time.time() + 120
    while len(list(work.glob("*/part-*.npz"))) < count:
        assert process.poll() is None, process.communicate()
        assert time.time() < deadline, "no partition saved in time"
        time.sleep(0.02)


def _workers(pid: int) -> list[int]:
    """The pool workers of process ``pid``: its children running the same command line."""
    command = Path(f"/proc/{pid}/cmdline").read_bytes()
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and (entry / "cmdline").read_bytes() == command:
                found.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _gone(pids: list[int], seconds: float = 60) -> bool:
    """Have the processes ended? ``seconds`` only bounds a hang, on the busiest machine."""
    deadline = time.time() + seconds
    while any(_alive(pid) for pid in pids):
        if time.time() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.slow
def test_second_run_of_the_same_command_is_refused(tmp_path, capsys) -> None:
    work = tmp_path / "w"
    first = _start(work, "--workers", "1")
    try:
        _wait_for_partitions(work, 3, first)
        before = _mtimes(_folder(work))
        code, out, err = run(capsys, *BIG, "--workers", "1", "--work-dir", str(work))
        assert first.poll() is None, "the first run ended too soon to be caught"
        assert code == 2 and out == ""
        _one_line(err)
        assert f"{_folder(work)}: another run is using this run folder" in err
        after = _mtimes(_folder(work))
        assert all(after.get(name) == mtime for name, mtime in before.items())
        output, errors = first.communicate(timeout=300)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 0 and _no_warnings(errors) == ""
    assert len(_mtimes(_folder(work))) == 200
    code, out, _ = run(capsys, *BIG, "--work-dir", str(work), "--resume")
    assert code == 0 and out == output


linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the process tree from /proc"
)


@pytest.mark.slow
@linux_only
def test_killed_worker_is_one_line_then_resumes(tmp_path, capsys, big) -> None:
    work = tmp_path / "w"
    process = _start(work, "--workers", "2")
    try:
        _wait_for_partitions(work, 1, process)
        workers = _workers(process.pid)
        assert len(workers) == 2
        os.kill(workers[0], signal.SIGKILL)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 2 and out == ""
    _one_line(err)
    assert "a worker process died" in err and "partitions are saved" in err
    assert "--resume" in err
    assert _gone(workers)  # the other worker was stopped too
    code, out, _ = run(capsys, *BIG, "--workers", "1", "--work-dir", str(work), "--resume")
    assert code == 0 and out == big


@pytest.mark.slow
@linux_only
@pytest.mark.parametrize("how", ["SIGKILL to the main process", "SIGTERM", "Ctrl-C"])
def test_stopped_run_leaves_no_worker_behind(tmp_path, capsys, big, how) -> None:
    work = tmp_path / "w"
    process = _start(work, "--workers", "2", session=True)
    try:
        _wait_for_partitions(work, 1, process)
        workers = _workers(process.pid)
        assert len(workers) == 2
        if how == "Ctrl-C":  # as a terminal does: to the whole process group
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGKILL if how.startswith("SIGKILL") else signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert _gone(workers)  # orphans die with their parent (or are stopped by it)
    # It stopped rather than ran on to the end: judged by what it saved, not by a clock.
    assert len(_mtimes(_folder(work))) < 200
    if how != "SIGKILL to the main process":
        assert process.returncode == 130 and out == ""
        _one_line(err)
        assert "interrupted" in err and "--resume" in err
    code, out, _ = run(capsys, *BIG, "--workers", "1", "--work-dir", str(work), "--resume")
    assert code == 0 and out == big


# --- Dask schedulers ------------------------------------------------------------------


@contextlib.contextmanager
def fake_server(greeting: bytes | None) -> Iterator[int]:
    """A TCP server on 127.0.0.1 that sends ``greeting`` on accepting (or nothing) and then
    holds the connection open; yields its port."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                connection, _ = server.accept()
                held.append(connection)
                if greeting:
                    connection.sendall(greeting)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield server.getsockname()[1]
    finally:
        server.close()
        for connection in held:
            connection.close()


def _free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return probe.getsockname()[1]


@pytest.mark.parametrize(
    ("greeting", "message"),
    [
        (b"SSH-2.0-OpenSSH_9.6\r\n", "does not speak the Dask protocol"),
        (b"220 ready\r\n", "does not speak the Dask protocol"),
        # Waits out the 10 s handshake: left out of the quick check.
        pytest.param(None, "no Dask handshake within 10 s", marks=pytest.mark.slow),
        ((64).to_bytes(8, "little") + b"{", "no Dask handshake within 1 s"),
    ],
    ids=["banner", "short banner", "silent", "stalls mid-handshake"],
)
def test_dask_fake_server_is_one_line(tmp_path, capsys, monkeypatch, greeting, message) -> None:
    # The silent server waits out the program's own limit (10 s, as its message says);
    # the one that stalls mid-handshake, the same path, a limit of 1 s.
    if message.endswith("within 1 s"):
        monkeypatch.setattr(runner, "SCHEDULER_TIMEOUT", 1.0)
    with fake_server(greeting) as port:
        started = time.monotonic()
        code, out, err = run(
            capsys, *SMALL, "--scheduler", f"tcp://127.0.0.1:{port}", "--work-dir", str(tmp_path)
        )
        took = time.monotonic() - started
    # The limit is the program's (its message says so); the bound here
    # only tells a hang from a refusal, with room for the busiest machine.
    assert code == 2 and out == "" and took < HANG
    _one_line(err)
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}: " in err and message in err


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("not a url", "give the Dask scheduler's address as tcp://HOST:PORT"),
        ("http://127.0.0.1:1", "give the Dask scheduler's address as tcp://HOST:PORT"),
        ("tls://127.0.0.1:8786", "give the Dask scheduler's address as tcp://HOST:PORT"),
        ("tcp://127.0.0.1:99999", "give the Dask scheduler's address as tcp://HOST:PORT"),
        ("tcp://127.0.0.1", "give the Dask scheduler's address as tcp://HOST:PORT"),
        ("tcp://127.0.0.1:8786/x", "give the Dask scheduler's address as tcp://HOST:PORT"),
        ("tcp://127.0.0.1:{free}", "Connection refused"),
    ],
)
def test_dask_bad_address_is_one_line(tmp_path, capsys, address, message) -> None:
    address = address.replace("{free}", str(_free_port()))
    started = time.monotonic()
    code, out, err = run(capsys, *SMALL, "--scheduler", address, "--work-dir", str(tmp_path))
    assert code == 2 and out == "" and time.monotonic() - started < HANG
    _one_line(err)
    assert message in err


def _huge_declared(path: Path, elements: int) -> None:
    """A partition whose ``rounds`` entry declares ``elements`` int64s but holds none."""
    entries = _entries(path)
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<i8", "fortran_order": False, "shape": (elements,)}
    )
    with path.open("wb") as stream:
        np.savez(stream, **{k: v for k, v in entries.items() if k != "rounds"})
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr("rounds.npy", b"\x93NUMPY\x01\x00" + header.getvalue()[8:])


def _count_check(columns: int = 1) -> Callable[[dict, int], None]:
    """The structure check of SMALL's partitions (one column, a linear count)."""
    from analyzer import seed_paytable
    from analyzer.runs.counting import CountJob
    from analyzer.runs.dealer import Procedure

    paytable = seed_paytable()
    bets = tuple((bet.id, mode) for bet, mode in paytable.offered(paytable.modes[:1]))
    job = CountJob(paytable, bets[:columns], Procedure(), 3, ((0,) * 13,), (1.0,))
    return job.check


def test_a_partition_declaring_huge_arrays_is_refused_unread(tmp_path, small) -> None:
    """Headers are read before data: a tampered file declaring 400 MB is turned away
    without taking the memory (it could otherwise take all of it)."""

    _, saved = small
    folder = tmp_path / "w"
    shutil.copytree(_folder(saved), folder)
    path = folder / "part-00002.npz"
    meta = json.loads(str(_entries(path)[META]))
    del meta["sha256"]
    assert _load(path, meta, _count_check()) is not None  # the file as saved loads
    _huge_declared(path, 50_000_000)
    tracemalloc.start()
    try:
        assert _load(path, meta, _count_check()) is None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50_000_000, peak


@pytest.mark.slow
def test_a_lost_dask_scheduler_is_one_line_and_resumes(tmp_path) -> None:
    """The scheduler killed mid-run: one line (Dask's own logs of the lost connection are
    not shown), exit 2, finished partitions kept; --resume, here locally, completes it
    with the undisturbed result."""
    argv = [*CLI, *BIG, "--work-dir", str(tmp_path / "w")]
    with dask_cluster(tmp_path, workers=1) as (address, scheduler):
        process = subprocess.Popen(
            [*argv, "--scheduler", address], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            if len(list(tmp_path.glob("w/*/part-*.npz"))) >= 3:
                break
            time.sleep(0.05)
        scheduler.kill()
        out, err = process.communicate(timeout=120)
    assert process.returncode == 2 and out == b"", err
    _one_line(err.decode())
    assert "the Dask cluster failed" in err.decode() and "--resume" in err.decode()
    resumed = subprocess.run(
        [*argv, "--workers", "1", "--resume"], capture_output=True, text=True, timeout=300
    )
    assert resumed.returncode == 0
    assert resumed.stdout == _main(*BIG, "--workers", "1", "--work-dir", str(tmp_path / "r"))[1]
