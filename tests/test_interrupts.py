"""Ctrl-C and SIGTERM as one KeyboardInterrupt, and never inside a C caller's callback."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
import weakref

import pytest

from analyzer.interrupts import (
    interrupt_requested,
    interrupts_deferred,
    interrupts_polled,
    interrupts_raised,
)

HANDLED = (signal.SIGINT, signal.SIGTERM, signal.SIGALRM)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_becomes_a_keyboard_interrupt(signum) -> None:
    with pytest.raises(KeyboardInterrupt), interrupts_raised():
        assert not interrupt_requested()
        signal.raise_signal(signum)
        time.sleep(5)  # never reached: the handler raises at once
    assert interrupt_requested()


def test_previous_handlers_come_back() -> None:
    before = {number: signal.getsignal(number) for number in HANDLED}
    calls = []
    previous = signal.signal(signal.SIGTERM, lambda *_: calls.append("mine"))
    try:
        with interrupts_raised():
            assert all(signal.getsignal(n) is signal.getsignal(signal.SIGINT) for n in HANDLED)
        signal.raise_signal(signal.SIGTERM)
        assert calls == ["mine"]
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert {number: signal.getsignal(number) for number in HANDLED} == before


def test_entering_again_forgets_an_old_interrupt() -> None:
    with pytest.raises(KeyboardInterrupt), interrupts_raised():
        signal.raise_signal(signal.SIGINT)
    assert interrupt_requested()
    with interrupts_raised():
        assert not interrupt_requested()


def test_off_the_main_thread_nothing_is_installed() -> None:
    seen = []

    def worker() -> None:
        with interrupts_raised():
            seen.append(signal.getsignal(signal.SIGINT))

    before = signal.getsignal(signal.SIGINT)
    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen == [before]


# A function whose code claims to be llvmlite's: what runs inside a ctypes callback while
# numba compiles. An exception raised there would be printed and swallowed.
_CALLBACK = compile(
    "def callback(send):\n"
    "    send()\n"
    "    total = 0\n"
    "    for i in range(100000):\n"
    "        total += i\n"
    "    return total\n",
    "/site-packages/llvmlite/binding/fake_callback.py",
    "exec",
)


def test_an_interrupt_inside_a_callback_waits_until_it_returns() -> None:
    namespace: dict = {}
    exec(_CALLBACK, namespace)
    finished = []
    with pytest.raises(KeyboardInterrupt), interrupts_raised():
        finished.append(namespace["callback"](lambda: signal.raise_signal(signal.SIGINT)))
        time.sleep(5)  # the retry (SIGALRM, 20 ms later) lands here
    assert finished == [sum(range(100000))]  # the callback ran to its end
    assert interrupt_requested()
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no retry left pending


def test_deferred_interrupts_let_the_block_finish() -> None:
    """Ctrl-C or SIGTERM inside the block does not stop it, nor surface after it (the
    work it would have stopped is done); the handlers come back."""
    with interrupts_raised():
        before = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
        finished = False
        with interrupts_deferred():
            for number in (signal.SIGINT, signal.SIGTERM):
                signal.raise_signal(number)
            finished = True
        assert finished
        after = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
        assert after == before
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)


def test_an_interrupt_a_weakref_callback_swallows_is_raised_again(capfd) -> None:
    """Python swallows an exception raised in a weakref callback (numba disposes of its
    types so); the interrupt is asked for again once the callback has returned, and the
    swallowed one is not shown."""

    class Thing:
        pass

    finished = []

    def disposed(_ref) -> None:
        signal.raise_signal(signal.SIGINT)  # the handler runs here, inside the callback
        finished.append(True)

    with pytest.raises(KeyboardInterrupt), interrupts_raised():
        thing = Thing()
        ref = weakref.ref(thing, disposed)
        del thing
        time.sleep(5)  # the retry (SIGALRM, 20 ms later) lands here
    assert ref() is None and finished == []  # the callback was cut short, then swallowed
    assert interrupt_requested()
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert "Exception ignored" not in capfd.readouterr().err


def test_other_swallowed_exceptions_are_still_shown() -> None:
    seen = []

    def hook(unraisable) -> None:
        seen.append(unraisable)

    previous = sys.unraisablehook
    sys.unraisablehook = hook
    try:
        with interrupts_raised():

            class Broken:
                def __del__(self) -> None:
                    raise ValueError("in __del__")

            Broken()
            assert sys.unraisablehook is not hook
        assert sys.unraisablehook is hook  # the previous hook comes back
    finally:
        sys.unraisablehook = previous
    assert [type(u.exc_value) for u in seen] == [ValueError]


def test_polled_interrupts_wait_for_a_safe_point() -> None:
    """Inside the block a signal only takes note; stop_if_asked raises at the point the
    code chooses (never inside a library's locks), and the block's end raises too."""
    steps = []
    with (
        pytest.raises(KeyboardInterrupt),
        interrupts_raised(),
        interrupts_polled() as stop_if_asked,
    ):
        stop_if_asked()  # nothing yet
        signal.raise_signal(signal.SIGINT)
        steps.append("went on")  # the handler did not raise
        stop_if_asked()
        steps.append("never")
    assert steps == ["went on"] and interrupt_requested()
    with pytest.raises(KeyboardInterrupt), interrupts_raised(), interrupts_polled():
        signal.raise_signal(signal.SIGTERM)
        steps.append("finished the block")
    assert steps[-1] == "finished the block"
    with interrupts_raised():
        before = signal.getsignal(signal.SIGINT)
        with interrupts_polled() as stop_if_asked:
            stop_if_asked()
        assert signal.getsignal(signal.SIGINT) is before  # the raising handler is back


def test_a_handler_set_within_the_block_stays() -> None:
    """Signals ignored once the work is done stay ignored when the block ends (putting
    back the raising handler, or Python's, would reopen the window)."""
    before = signal.getsignal(signal.SIGINT)
    try:
        with interrupts_raised():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) is not signal.SIG_IGN  # put back as it was
    finally:
        signal.signal(signal.SIGINT, before)


def test_an_interrupt_c_code_prints_and_drops_is_raised_again(capfd) -> None:
    """C code that prints an exception and carries on (``PyErr_PrintEx``: Cython does so
    for an error inside a function that cannot raise, an import there included) would show
    the interrupt's traceback and lose it; it is not shown and is asked for again. Found by
    CI: Ctrl-C during start-up printed a traceback beginning in importlib."""
    import ctypes

    went_on = []
    with pytest.raises(KeyboardInterrupt), interrupts_raised():
        with contextlib.suppress(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)  # the interrupt has come
        # C code that runs Python, prints its exception (PyErr_Print) and carries on:
        assert ctypes.pythonapi.PyRun_SimpleString(b"raise KeyboardInterrupt") == -1
        went_on.append(True)
        time.sleep(5)  # the retry (SIGALRM, 20 ms later) lands here
    assert went_on == [True]
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert "Traceback" not in capfd.readouterr().err


def test_other_printed_exceptions_are_still_shown() -> None:
    seen = []

    def hook(kind, value, traceback) -> None:
        seen.append(kind)

    previous = sys.excepthook
    sys.excepthook = hook
    try:
        with interrupts_raised():
            assert sys.excepthook is not hook
            sys.excepthook(ValueError, ValueError("shown"), None)
            sys.excepthook(KeyboardInterrupt, KeyboardInterrupt(), None)  # none came yet
        assert sys.excepthook is hook  # the previous hook comes back
    finally:
        sys.excepthook = previous
    assert seen == [ValueError, KeyboardInterrupt]
