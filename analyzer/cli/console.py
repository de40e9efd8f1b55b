"""The ``baccarat-odds`` entry point: Ctrl-C at any moment, start-up included, is one line.

Kept free of heavy imports, so the interrupt handler is in place before numba, pandas and
the rest load. Started as the program (no argument list given), it ends the process itself
once the command is done, without the interpreter's teardown (:func:`_leave`).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import signal
import sys
from collections.abc import Sequence

from analyzer.errors import tell
from analyzer.interrupts import interrupt_requested, interrupts_raised

INTERRUPTED = 130


def _run(argv: Sequence[str] | None) -> int:
    status = None
    try:
        with interrupts_raised():
            try:
                from analyzer.cli.main import main as run
            except (KeyboardInterrupt, Exception):
                if not interrupt_requested():
                    raise  # a broken installation keeps its traceback
                # An interrupt inside an import can surface as another exception: an
                # ImportError from a C extension, a RuntimeError from a class being made
                # (``__set_name__`` wraps what it raises). It is still the user's Ctrl-C.
                tell("interrupted: nothing was written")
                return INTERRUPTED
            status = run(argv)
            # The command has finished and said so: a Ctrl-C or SIGTERM from here on
            # must not turn its exit into a traceback or a death by signal.
            for number in (signal.SIGINT, signal.SIGTERM):
                signal.signal(number, signal.SIG_IGN)
    except KeyboardInterrupt:
        if status is None:  # pragma: no cover - the command catches its own
            tell("interrupted: nothing was written")
            return INTERRUPTED
    return status


def _leave(status: int) -> None:
    """End the process with ``status`` as a normal exit ends it (every ``atexit`` function
    run, the output streams flushed), less the interpreter's teardown: taking down every
    module and object it made cost a ``report`` some 8 ms (a twentieth of its run), and
    nothing is left to do once the command has finished and said so. Returns, for the
    normal exit, where that may still matter: under a profiler, tracer or debugger (their
    reports come at exit), with another thread still running (the exit waits for it), or
    where a stream cannot be flushed (the exit says so, with its own status)."""
    if sys.getprofile() is not None or sys.gettrace() is not None:
        return
    threading = sys.modules.get("threading")  # (not imported: no thread was started)
    if threading is not None:
        main_thread = threading.main_thread()
        if any(not t.daemon and t is not main_thread for t in threading.enumerate()):
            return
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except Exception:
        return
    atexit._run_exitfuncs()  # (coverage, logging, temporary folders: as at any exit)
    with contextlib.suppress(Exception):
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    os._exit(status)


def main(argv: Sequence[str] | None = None) -> int:
    # No cyclic garbage collection while the modules load (numpy's and ours make many
    # objects and little garbage: some 6 ms of a start); the command itself collects as
    # usual (analyzer.cli.main turns it back on before it runs, start-up's objects frozen).
    gc.disable()
    try:
        status = _run(argv)
    finally:
        gc.enable()
        # The command has finished and said so: a Ctrl-C or SIGTERM now must not turn the
        # exit that follows into a death by signal with a different status.
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, signal.SIG_IGN)
    if status == INTERRUPTED:
        # Leave at once: after a KeyboardInterrupt deep in an import, the interpreter's
        # own shutdown may end the process by SIGINT instead, with another status.
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(INTERRUPTED)
    if argv is None:  # the program itself (a caller that passes its argv gets the status)
        _leave(status)
    return status
