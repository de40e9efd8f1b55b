"""Where progress goes: the bars of slow work, and a line before a slow first step.

A process has one setting, the command line's ``--progress [FILE]`` / ``--no-progress``
(:func:`progress_to`): by default a bar is shown on standard error when it is a terminal
only; ``--progress`` shows it there even when it is not; ``--progress FILE`` writes each
update as one line appended to FILE; ``--no-progress`` shows none. Every bar takes its
keyword arguments from :func:`bar_options`, and :func:`note` writes a line where the bars go.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from typing import Any, TextIO

#: Seconds between two updates written into a progress file.
FILE_INTERVAL = 1.0


class _Lines:
    """A progress file, opened for appending at its first line: each update a bar writes
    (``\r`` then the bar) becomes one line, the blanking of a bar left behind none."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.stream: TextIO | None = None
        self.last = ""

    def write(self, text: str) -> int:
        for piece in text.replace("\n", "\r").split("\r"):
            line = piece.rstrip()
            if line.strip() and line != self.last:  # (a bar closing repeats its last)
                if self.stream is None:
                    self.stream = open(self.path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115
                self.stream.write(line + "\n")
                self.last = line
        return len(text)

    def flush(self) -> None:
        if self.stream is not None:
            self.stream.flush()

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()


#: None: on a terminal only; False: none; True: on standard error; a stream: into a file.
_setting: bool | _Lines | None = None


@contextlib.contextmanager
def progress_to(shown: bool | None, path: str | None = None) -> Iterator[None]:
    """Within the block, progress is shown as ``shown`` says (None: on a terminal only,
    False: never, True: on standard error), or appended to the file at ``path`` (opened
    at the first line written to it: a command that fails before writes nothing)."""
    global _setting
    before = _setting
    _setting = shown if path is None else _Lines(path)
    try:
        yield
    finally:
        if isinstance(_setting, _Lines):
            with contextlib.suppress(OSError):
                _setting.close()
        _setting = before


def bar_options(progress: bool | None = None, *, leave: bool = True) -> dict[str, Any]:
    """The keyword arguments of a tqdm bar (``disable``, ``leave``, and for a progress
    file ``file``, ``ascii`` and ``mininterval``).

    Parameters
    ----------
    progress : bool or None
        A caller's own choice (True: on standard error, False: none); None: the
        process's setting (:func:`progress_to`).
    leave : bool
        Whether the bar stays on the terminal once done (in a progress file its last
        update always stays).

    Returns
    -------
    dict
        The keyword arguments, for ``tqdm(..., **bar_options())``.

    Examples
    --------
    >>> bar_options(False)
    {'disable': True, 'leave': True}
    """
    setting = _setting if progress is None else progress
    if isinstance(setting, _Lines):
        return {
            "disable": False, "leave": True, "file": setting, "ascii": True,
            "mininterval": FILE_INTERVAL,
        }  # fmt: skip
    if setting is None:
        return {"disable": None, "leave": leave}  # tqdm: only where its stream is a terminal
    return {"disable": not setting, "leave": leave}


def showing(progress: bool | None = None) -> bool:
    """Whether a bar made with :func:`bar_options` (``progress`` as there) is shown."""
    options = bar_options(progress)
    if options["disable"] is None:
        stream = sys.stderr
        return stream is not None and bool(getattr(stream, "isatty", lambda: False)())
    return not options["disable"]


def note(message: str, progress: bool | None = None) -> None:
    """``message`` as one line where the bars go (nothing where none is shown)."""
    _write(_stream(progress), message)


def _stream(progress: bool | None = None) -> Any:
    """Where a note goes now (None: nowhere)."""
    if not showing(progress):
        return None
    return bar_options(progress).get("file", sys.stderr)


def _write(stream: Any, message: str) -> None:
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError, AttributeError):
        stream.write(f"{message}\n")
        stream.flush()


#: Seconds a step runs before :func:`slow_step` says what it is doing.
SLOW = 2.0


@contextlib.contextmanager
def slow_step(message: str, after: float = SLOW) -> Iterator[None]:
    """Within the block, ``message`` is a :func:`note` once the block has run ``after``
    seconds (said from a timer thread, and only while the work is still running)."""
    stream = _stream()
    if stream is None:
        yield
        return
    done = threading.Event()

    def say() -> None:
        if not done.wait(after):
            _write(stream, message)

    threading.Thread(target=say, name="slow step", daemon=True).start()
    try:
        yield
    finally:
        done.set()
