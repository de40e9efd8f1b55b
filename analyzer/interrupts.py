"""Ctrl-C and SIGTERM as one clean :class:`KeyboardInterrupt`, wherever they land.

Python raises ``KeyboardInterrupt`` in whatever code runs when the signal arrives. Inside
code that C calls back (a ctypes callback: llvmlite while numba compiles; a weakref
callback or a ``__del__``: numba disposing of a type) the exception is printed as
"Exception ignored" and swallowed, so the interrupt would be lost, a traceback shown and
the run carried on to the end. The handler here does not raise inside llvmlite's
callbacks, and an interrupt swallowed anywhere else (it reaches ``sys.unraisablehook``)
is not shown: either way the handler asks again a few milliseconds later, once the
callback has returned. Some C callers print the exception in full first, through
``sys.excepthook`` (Cython does so for an error in a function that cannot raise, an
import inside one included); an interrupt printed that way is not shown either.
"""

from __future__ import annotations

import contextlib
import functools
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType, TracebackType
from typing import Any

#: Code whose exceptions are swallowed by a C caller: never raise while it runs.
_CALLBACK_CODE = ("llvmlite",)
_RETRY_SECONDS = 0.02
_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGALRM)


def _in_callback(frame: FrameType | None) -> bool:
    while frame is not None:
        if any(part in frame.f_code.co_filename for part in _CALLBACK_CODE):
            return True
        frame = frame.f_back
    return False


_requested = False
#: The command's output is complete (:func:`output_complete`): an interrupt now is a no-op.
_complete = False


def interrupt_requested() -> bool:
    """Has Ctrl-C or SIGTERM arrived? (An interrupt that lands inside a C extension's
    import can surface as an ImportError instead of a KeyboardInterrupt.)"""
    return _requested


def _interrupt(signum: int, frame: FrameType | None) -> None:
    global _requested
    if _complete:  # nothing is left to stop: the exit status stays the command's own
        return
    _requested = True
    if _in_callback(frame):
        signal.setitimer(signal.ITIMER_REAL, _RETRY_SECONDS)  # SIGALRM: try again soon
        return
    raise KeyboardInterrupt


def _swallowed(unraisable: Any, hook: Callable[[Any], object]) -> None:
    """``sys.unraisablehook`` while interrupts are raised: an interrupt a C caller
    swallowed is asked for again; anything else goes to ``hook``."""
    if _requested and isinstance(unraisable.exc_value, KeyboardInterrupt):
        signal.setitimer(signal.ITIMER_REAL, _RETRY_SECONDS)  # SIGALRM: try again soon
        return
    hook(unraisable)


def _printed(
    kind: type[BaseException],
    value: BaseException,
    traceback: TracebackType | None,
    hook: Callable[..., object],
) -> None:
    """``sys.excepthook`` while interrupts are raised: C code printing an interrupt it then
    drops (``PyErr_Print``) prints nothing, and the interrupt is asked for again; anything
    else goes to ``hook``."""
    if _requested and issubclass(kind, KeyboardInterrupt):
        signal.setitimer(signal.ITIMER_REAL, _RETRY_SECONDS)  # SIGALRM: try again soon
        return
    hook(kind, value, traceback)


@contextlib.contextmanager
def interrupts_raised() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise ``KeyboardInterrupt`` (only on the main
    thread, where signal handlers can be set); the previous handlers come back after."""
    global _requested, _complete
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _requested = _complete = False
    previous = {number: signal.signal(number, _interrupt) for number in _SIGNALS}
    previous_hook, previous_excepthook = sys.unraisablehook, sys.excepthook
    sys.unraisablehook = functools.partial(_swallowed, hook=previous_hook)
    sys.excepthook = functools.partial(_printed, hook=previous_excepthook)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.unraisablehook, sys.excepthook = previous_hook, previous_excepthook
        for number, handler in previous.items():
            # A handler set within the block (signals ignored once the work is done)
            # stays: putting back a raising one would reopen the window it closed.
            if signal.getsignal(number) is _interrupt:
                signal.signal(number, signal.SIG_DFL if handler is None else handler)


@contextlib.contextmanager
def interrupts_polled() -> Iterator[Callable[[], None]]:
    """Within the block, SIGINT and SIGTERM only take note; the block calls the function
    yielded where stopping is safe, and it raises ``KeyboardInterrupt`` once one came
    (so does the block's end). For code that waits inside a library's locks (a process
    pool's futures): an exception raised at an arbitrary instruction there can leave a
    lock held, and the pool's own thread then waits for it forever."""
    with interrupts_noted() as came:

        def stop_if_asked() -> None:
            if came():
                raise KeyboardInterrupt

        yield stop_if_asked
    stop_if_asked()  # an interrupt that came as the block ended


@contextlib.contextmanager
def interrupts_noted() -> Iterator[Callable[[], bool]]:
    """Within the block, SIGINT and SIGTERM only take note, and the function yielded says
    whether one came. For writing the command's output: the writer asks between two chunks
    and stops there, so it always knows how much went out. A handler that raised could
    land between a chunk written and its count, and call a complete output cut short."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    noted: list[int] = []

    def take_note(signum: int, _frame: FrameType | None) -> None:
        global _requested
        _requested = True
        noted.append(signum)

    previous = {number: signal.signal(number, take_note) for number in _SIGNALS[:2]}
    try:
        yield lambda: bool(noted)
    finally:
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)


def output_complete() -> None:
    """The command's output is written and its files are in place: from now on, to the
    end of :func:`interrupts_raised`, SIGINT and SIGTERM change nothing (they do not
    raise). Called inside :func:`interrupts_noted`, where no signal raises, so no
    interrupt can fall between the last write and this."""
    global _complete
    _complete = True


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM wait: steps that must all happen once begun
    (the renames that swap a folder into place, and removing the old one). An interrupt
    that arrives meanwhile came too late to stop the work, which is then complete: it is
    not raised afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, signal.SIG_IGN) for number in _SIGNALS[:2]}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)


class Interrupted(Exception):
    """A run stopped (Ctrl-C); finished partitions are saved."""
