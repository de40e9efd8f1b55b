"""The ``baccarat-odds`` entry point: Ctrl-C at any moment, start-up included, is one line.

Kept free of heavy imports, so the interrupt handler is in place before numba, pandas and
the rest load.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence

from analyzer.errors import tell
from analyzer.interrupts import interrupts_raised


def main(argv: Sequence[str] | None = None) -> int:
    try:
        with interrupts_raised():
            try:
                from analyzer.cli.main import main as run
            except KeyboardInterrupt:
                tell("interrupted: nothing was written")
                return 130
            return run(argv)
    finally:
        # The command has finished and said so: a Ctrl-C or SIGTERM now must not turn the
        # exit that follows into a death by signal with a different status.
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, signal.SIG_IGN)
