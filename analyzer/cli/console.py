"""The ``baccarat-odds`` entry point: Ctrl-C at any moment, start-up included, is one line.

Kept free of heavy imports, so the interrupt handler is in place before numba, pandas and
the rest load.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Sequence

from analyzer.interrupts import interrupts_raised


def main(argv: Sequence[str] | None = None) -> int:
    try:
        with interrupts_raised():
            try:
                from analyzer.cli.main import main as run
            except KeyboardInterrupt:
                if sys.stderr is not None:
                    print("baccarat-odds: interrupted: nothing was written", file=sys.stderr)
                return 130
            return run(argv)
    finally:
        # The command has finished and said so: a Ctrl-C now must not turn the exit that
        # follows into a death by signal with a different status.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
