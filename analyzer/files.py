"""Files in and out: untrusted TOML read with one clear error, output written whole.

Every output file is first written under a temporary name beside its target, then renamed
onto it, so a failure (a full disk, an interrupt) never leaves a partial file; a set of
files is written all or nothing. Files are created with the usual permissions (0666 less
the umask), as any other program's output would be.
"""

from __future__ import annotations

import os
import secrets
import shutil
import stat
import tomllib
import unicodedata
from collections.abc import Callable, Mapping
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from analyzer.errors import AnalyzerError

#: Deepest nesting of arrays and tables accepted in an untrusted TOML file.
MAX_TOML_DEPTH = 16
#: Control characters allowed in text from untrusted files (others could drive a terminal).
_ALLOWED_CONTROLS = frozenset("\t\n")

Writer = Callable[[str], None]


def _new_temporary(folder: Path, suffix: str) -> Path:
    """Create an empty file with a fresh name in ``folder``; its mode honours the umask."""
    for _ in range(100):
        path = folder / f".tmp-{secrets.token_hex(6)}{suffix}"
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
        except FileExistsError:
            continue
        return path
    raise FileExistsError(f"no free temporary name in {folder}")  # pragma: no cover


def write_files_atomically(targets: Mapping[str | Path, Writer]) -> None:
    """Write several files all or nothing.

    Each ``write(temporary_path)`` writes one file beside its target; only when every one
    has succeeded are they renamed onto their targets (a rename within a folder does not
    fail for want of space). On any failure the temporaries are removed and every target
    is left as it was. Errors are ``OSError`` as raised; callers name the option.
    """
    staged: list[tuple[Path, Path]] = []
    try:
        for target, write in targets.items():
            target = Path(target)
            temporary = _new_temporary(target.parent.resolve(), target.suffix)
            staged.append((temporary, target))
            write(str(temporary))
        for temporary, target in staged:
            os.replace(temporary, target)
    finally:
        for temporary, _ in staged:
            if temporary.exists():
                temporary.unlink()


def write_atomically(path: str | Path, write: Writer) -> None:
    """Call ``write(temporary_path)``, then rename the result onto ``path``."""
    write_files_atomically({path: write})


def text_writer(text: str) -> Writer:
    def write(temporary: str) -> None:
        with open(temporary, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)

    return write


def write_text_atomically(path: str | Path, text: str) -> None:
    write_atomically(path, text_writer(text))


def write_tree_atomically(folder: Path, files: Mapping[str, str]) -> None:
    """Write text files (relative paths) under ``folder``, all or nothing.

    A new folder is built under a temporary name beside it and renamed into place; an
    existing folder gets every file staged in a temporary folder inside it first, then
    moved into place, so a failure while writing leaves it as it was.
    """
    folder = Path(folder)
    fresh = not folder.exists()
    # A fresh folder is built beside its target and renamed into place in one step.
    staging = (folder.parent.resolve() if fresh else folder) / f".tmp-{secrets.token_hex(6)}"
    staging.mkdir()
    try:
        for relative, text in files.items():
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            text_writer(text)(str(target))
        if fresh:
            os.rename(staging, folder)
            return
        for relative in files:
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / relative, folder / relative)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def check_writable(path: str | Path, option: str, suffixes: tuple[str, ...] | None = None) -> Path:
    """Refuse, before any work, an output target that cannot be written.

    The name must end in one of ``suffixes`` (when given); the folder must exist and take
    a new file (probed by creating and removing one, which catches read-only mounts and
    missing permissions alike); the target must not be a folder or a special file.
    """
    target = Path(path)
    if str(path) == "" or target.name in ("", ".", ".."):
        raise AnalyzerError(f"{option} {str(path)!r}: name a file")
    if suffixes is not None and target.suffix.lower() not in suffixes:
        raise AnalyzerError(f"{option} {target}: name a {' or '.join(suffixes)} file")
    folder = target.parent
    if not folder.is_dir():
        what = "does not exist" if not folder.exists() else "is not a folder"
        raise AnalyzerError(f"{option} {target}: folder {folder} {what}")
    if target.is_dir():
        raise AnalyzerError(f"{option} {target}: is a folder, not a file")
    if target.exists() and not target.is_file():
        raise AnalyzerError(f"{option} {target}: exists and is not a regular file")
    try:
        _new_temporary(folder.resolve(), target.suffix).unlink()
    except OSError as exc:
        raise AnalyzerError(
            f"{option} {target}: cannot write in {folder}: {exc.strerror}"
        ) from None
    return target


def output_error(option: str, target: str | Path, exc: OSError) -> AnalyzerError:
    """The one-line error for a failed write of an output."""
    reason = exc.strerror or str(exc)
    return AnalyzerError(f"{option} {target}: cannot write: {reason}; nothing was written")


def _check_text(text: str, where: str) -> None:
    for char in text:
        category = unicodedata.category(char)
        if (category == "Cc" and char not in _ALLOWED_CONTROLS) or (
            category == "Cf" and unicodedata.bidirectional(char) in ("LRO", "RLO", "LRE", "RLE")
        ):
            raise AnalyzerError(
                f"{where}: text holds the control character U+{ord(char):04X}, which is not allowed"
            )


def check_untrusted(data: Any, where: str) -> None:
    """Bound the nesting of parsed untrusted data and refuse control characters in it.

    Walks iteratively, so no input can exhaust the stack.
    """
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_TOML_DEPTH:
            raise AnalyzerError(f"{where}: nested more than {MAX_TOML_DEPTH} levels deep")
        if isinstance(value, str):
            _check_text(value, where)
        elif isinstance(value, dict):
            for key, item in value.items():
                _check_text(key, where)
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)


#: Largest input file read (a paytable, claims or shoe file is a few kilobytes).
MAX_INPUT_BYTES = 16 * 2**20


def _unreadable(path: object, exc: OSError) -> AnalyzerError:
    if isinstance(exc, FileNotFoundError):
        return AnalyzerError(f"{path}: no such file")
    if isinstance(exc, IsADirectoryError):
        return AnalyzerError(f"{path}: is a directory, not a file")
    return AnalyzerError(f"{path}: cannot read: {exc.strerror or exc}")


def file_stamp(path: Path) -> tuple[int, int, int]:
    """(device, inode, modification time) of a regular file: it changes when the file does."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise _unreadable(path, exc) from None
    if stat.S_ISDIR(info.st_mode):
        raise AnalyzerError(f"{path}: is a directory, not a file")
    return info.st_dev, info.st_ino, info.st_mtime_ns


def read_input(path: Path | Traversable) -> bytes:
    """The bytes of an untrusted input file: a regular file of at most
    :data:`MAX_INPUT_BYTES` (a device, a FIFO or an endless file is refused, not read)."""
    if not isinstance(path, Path):  # shipped with the package
        return path.read_bytes()
    try:
        with path.open("rb") as stream:
            info = os.fstat(stream.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError
            if not stat.S_ISREG(info.st_mode):
                raise AnalyzerError(f"{path}: not a regular file")
            data = stream.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise _unreadable(path, exc) from None
    if len(data) > MAX_INPUT_BYTES:
        raise AnalyzerError(f"{path}: larger than {MAX_INPUT_BYTES // 2**20} MiB")
    return data


def read_toml(path: Path | Traversable) -> dict[str, Any]:
    """Read an untrusted TOML file; every failure is one :class:`AnalyzerError`."""
    raw = read_input(path)
    try:
        # utf-8-sig: a byte-order mark, as some editors write, is not part of the text.
        data = tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise AnalyzerError(f"{path}: invalid TOML: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise AnalyzerError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        raise AnalyzerError(f"{path}: nested more than {MAX_TOML_DEPTH} levels deep") from None
    except ValueError:  # an integer of more digits than Python converts
        raise AnalyzerError(f"{path}: invalid TOML: a number with too many digits") from None
    check_untrusted(data, str(path))
    return data
