"""The installed entry point (``python -m analyzer``, ``baccarat-odds``)."""

from __future__ import annotations

import subprocess
import sys


def test_module_entry_point_exit_status() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "analyzer", "play", "AS"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "baccarat-odds: error: too few cards: a round starts with 4 "
        "(Player, Banker, Player, Banker), got 1"
    ]


class _Failing:
    """A finder that makes importing the command line fail as an interrupt landing in a
    class being made does: a RuntimeError caused by the KeyboardInterrupt (``ctrl_c``:
    the signal came, as the handler records it)."""

    ctrl_c = False

    def find_spec(self, name, path=None, target=None):
        from analyzer import interrupts

        if name == "analyzer.cli.main":
            interrupts._requested = self.ctrl_c
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt as interrupt:
                raise RuntimeError("Error calling __set_name__") from interrupt
        return None


def test_an_interrupt_wrapped_by_an_import_is_one_line(monkeypatch, capsys) -> None:
    import pytest

    from analyzer import interrupts
    from analyzer.cli import console

    monkeypatch.setattr(interrupts, "_requested", False)  # put back after the test
    monkeypatch.delitem(sys.modules, "analyzer.cli.main", raising=False)
    failing = _Failing()
    monkeypatch.setattr(sys, "meta_path", [failing, *sys.meta_path])
    # Without a Ctrl-C it is a broken installation: the traceback stays.
    with pytest.raises(RuntimeError):
        console._run(["play", "AS"])
    failing.ctrl_c = True
    assert console._run(["play", "AS"]) == console.INTERRUPTED
    assert capsys.readouterr().err.strip().splitlines() == [
        "baccarat-odds: interrupted: nothing was written"
    ]


_COLLECTOR = """
import gc
import sys
import analyzer.cli.play as play
seen = []
real_run = play.run
def run(args):
    seen.append((gc.isenabled(), gc.get_freeze_count()))
    return real_run(args)
play.run = run
from analyzer.cli.console import main
status = main({argv!r})
print(status, *seen[0], gc.isenabled(), file=sys.stderr)
"""


def _collector_seen(script: str) -> list[str]:
    """What ``script`` (one of the _COLLECTOR texts) says of the collector, running play."""
    done = subprocess.run(
        [sys.executable, "-c", script.format(argv=["play", "9S", "8H", "KD", "QC"])],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stderr.split()


def test_the_collector_is_on_for_the_command_with_start_up_frozen() -> None:
    # Started from the entry point, the command runs with the collector on and what
    # start-up made frozen out of its sight; called as a library, main() freezes nothing
    # (a test's or a caller's garbage must stay collectable).
    status, enabled, frozen, after = _collector_seen(_COLLECTOR)
    assert (status, enabled, after) == ("0", "True", "True")
    assert int(frozen) > 10_000
    library = _COLLECTOR.replace("analyzer.cli.console", "analyzer.cli.main")
    status, enabled, frozen, after = _collector_seen(library)
    assert (status, enabled, frozen, after) == ("0", "True", "0", "True")


_PROGRAM = """
import atexit
import sys
import threading
atexit.register(lambda: print("atexit ran", file=sys.stderr))
returned = threading.Event()  # (the thread is at work until main has returned: no timing)
if {thread!r}:
    def late():
        returned.wait()
        print("thread done", file=sys.stderr)
    threading.Thread(target=late).start()
sys.argv = ["baccarat-odds", *{argv!r}]
from analyzer.cli.console import main
status = main()
print("returned", status, file=sys.stderr)
returned.set()
"""


def _program(argv: list[str], thread: bool = False) -> subprocess.CompletedProcess:
    """The entry point run as the program (no argument list given) by a script."""
    script = _PROGRAM.format(argv=argv, thread=thread)
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )


def test_the_program_ends_as_a_normal_exit_ends_it() -> None:
    # Started as the program, main ends the process itself once the command is done
    # (without the interpreter's teardown): the output and status of a normal exit (the
    # command line's own main, which returns), every atexit function run.
    done = _program(["play", "9S", "8H", "KD", "QC"])
    normal = subprocess.run(
        [sys.executable, "-m", "analyzer.cli.main", "play", "9S", "8H", "KD", "QC"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == normal.returncode == 0
    assert done.stdout == normal.stdout and "Player" in done.stdout
    assert done.stderr.splitlines() == ["atexit ran"]  # (main did not return)
    failed = _program(["play", "AS"])
    assert failed.returncode == 2
    assert failed.stderr.splitlines()[-1] == "atexit ran"


def test_the_program_waits_for_a_thread_still_running() -> None:
    # Another thread still at work: main returns, and the interpreter's exit waits for it.
    done = _program(["play", "9S", "8H", "KD", "QC"], thread=True)
    assert done.returncode == 0
    assert done.stderr.splitlines() == ["returned 0", "thread done", "atexit ran"]
