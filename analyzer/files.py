"""Writing output files whole: never a partial file, even if the writer fails midway."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def write_atomically(path: str | Path, write: Callable[[str], None]) -> None:
    """Call ``write(temporary_path)``, then rename the result onto ``path``.

    The temporary file sits beside the target, so the rename is atomic; on any failure it
    is removed and ``path`` is left as it was.
    """
    path = Path(path)
    handle, temporary = tempfile.mkstemp(
        dir=path.parent.resolve(), prefix=".tmp-", suffix=path.suffix
    )
    os.close(handle)
    try:
        write(temporary)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def write_text_atomically(path: str | Path, text: str) -> None:
    def write(temporary: str) -> None:
        with open(temporary, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)

    write_atomically(path, write)
