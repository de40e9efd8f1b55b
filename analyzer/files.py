"""Files in and out: untrusted TOML read with one clear error, output written whole."""

from __future__ import annotations

import os
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from analyzer.errors import AnalyzerError


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


def read_toml(path: Path) -> dict[str, Any]:
    """Read an untrusted TOML file; every failure is one :class:`AnalyzerError`."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise AnalyzerError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise AnalyzerError(f"{path}: is a directory, not a file") from None
    except OSError as exc:
        raise AnalyzerError(f"{path}: cannot read: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise AnalyzerError(f"{path}: invalid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise AnalyzerError(f"{path}: invalid TOML: not UTF-8 text") from None
