"""Files in and out: untrusted TOML read with one clear error, output written whole.

Every output file is first written under a temporary name beside its target, then renamed
onto it, so a failure (a full disk, an interrupt) never leaves a partial file; a set of
files is written all or nothing. New files get the usual permissions (0666 less the
umask), as any other program's output would; a file written over keeps its own (a result
made private stays private).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.errors import AnalyzerError, tell
from analyzer.interrupts import interrupts_deferred
from analyzer.memo import Pattern

if TYPE_CHECKING:  # (the annotation only: importing it costs a command's start)
    from importlib.resources.abc import Traversable

#: Deepest nesting of arrays and tables accepted in an untrusted TOML file.
MAX_TOML_DEPTH = 16
#: Control characters allowed in text from untrusted files (others could drive a terminal).
_ALLOWED_CONTROLS = frozenset("\t\n")

Writer = Callable[[str], None]


def user_cache_folder(chosen: str | None = None) -> Path:
    """The per-user folder where the tool keeps what it can make again (the store of
    counts, the partitions of runs): ``chosen`` (``$BACCARAT_ODDS_CACHE``) when given, else
    the platform's cache folder, ``$XDG_CACHE_HOME/baccarat-odds`` or
    ``~/.cache/baccarat-odds``."""
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "baccarat-odds"


def _fresh_name() -> str:
    """Twelve random hexadecimal digits, for a temporary or set-aside name."""
    import secrets  # (here, not at the top: a command that writes no file never needs it)

    return secrets.token_hex(6)


def _rmtree(path: Path, **how: Any) -> None:
    import shutil  # (here: only a folder output's failure or replacement needs it)

    shutil.rmtree(path, **how)


def _new_temporary(folder: Path, suffix: str) -> Path:
    """Create an empty file with a fresh name in ``folder``; its mode honours the umask."""
    for _ in range(100):
        path = folder / f".tmp-{_fresh_name()}{suffix}"
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
        except FileExistsError:
            continue
        return path
    raise FileExistsError(f"no free temporary name in {folder}")  # pragma: no cover


#: Outputs a command has staged, waiting for its standard output (see outputs_held);
#: None outside that block: outputs go into place as soon as they are staged.
_held: list[tuple[Callable[[], None], Callable[[], None]]] | None = None


def _into_place(
    commit: Callable[[], None], discard: Callable[[], None], held: bool, whole: bool
) -> None:
    """Move staged output into place now (``discard`` then clears what is left), or,
    ``held`` inside :func:`outputs_held`, once the command's standard output is out.
    ``whole``: the output is the command's last step (several files, a folder), so once
    begun it is finished, cleaning up included, with interrupts deferred; a single file
    saved mid-run (a partition) is atomic by itself, and an interrupt must still stop
    the run."""
    if held and _held is not None:
        _held.append((commit, discard))
        return
    with interrupts_deferred() if whole else contextlib.nullcontext():
        try:
            commit()
        finally:
            discard()


@contextlib.contextmanager
def outputs_held() -> Iterator[Callable[[], None]]:
    """Within the block, outputs written with ``held=True`` are staged beside their
    targets and moved into place only by the function yielded, called once the command's
    standard output is written: a command that fails at the end (its standard output on
    a full disk, say) leaves no output behind. What was not moved in is removed."""
    global _held
    previous, _held = _held, []
    waiting = _held

    def move_in() -> None:
        with interrupts_deferred():
            while waiting:
                commit, discard = waiting.pop(0)
                try:
                    commit()
                except OSError as exc:  # (the moves made are undone by then)
                    where = getattr(exc, "target", None) or exc.filename or "an output"
                    label = getattr(exc, "label", None)
                    raise AnalyzerError(
                        f"{label + ' ' if label else ''}{where}: cannot write: "
                        f"{exc.strerror or exc}; no output file was changed"
                    ) from None
                finally:
                    discard()

    try:
        yield move_in
    finally:
        for _, discard in waiting:
            discard()
        _held = previous


def _swap_in(moves: Sequence[tuple[Path, Path]]) -> None:
    """Rename each new file onto its target, all or none: a target already there is
    first renamed aside, and if any move fails (a target made immutable or turned into a
    folder, a folder on another device) those done are undone, the old files put back.
    The ``OSError`` raised carries the target that failed as ``target``. Callers move
    several files in with interrupts deferred (:func:`_into_place`)."""
    if len(moves) == 1:  # one rename is all or nothing by itself: no file set aside
        new, target = moves[0]
        try:
            if target.is_dir() and not target.is_symlink():
                raise IsADirectoryError(errno.EISDIR, "Is a directory", str(target))
            os.replace(new, target)
        except OSError as exc:
            exc.target = target
            raise
        return
    done: list[tuple[Path, Path | None]] = []
    made: list[Path] = []
    try:
        for new, target in moves:
            try:
                for folder in reversed(target.parents):
                    if not folder.exists():
                        folder.mkdir()
                        made.append(folder)
                if target.is_dir() and not target.is_symlink():
                    raise IsADirectoryError(errno.EISDIR, "Is a directory", str(target))
                aside = None
                if os.path.lexists(target):
                    aside = target.parent / f".old-{_fresh_name()}{target.suffix}"
                    os.rename(target, aside)
                try:
                    os.rename(new, target)
                except OSError:
                    if aside is not None:
                        os.rename(aside, target)
                    raise
            except OSError as exc:
                exc.target = target
                raise
            done.append((target, aside))
    except OSError:
        for target, aside in reversed(done):
            with contextlib.suppress(OSError):
                if aside is None:
                    os.unlink(target)
                else:
                    os.replace(aside, target)
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    for _, aside in done:
        if aside is not None:
            with contextlib.suppress(OSError):
                os.unlink(aside)


def write_files_atomically(
    targets: Mapping[str | Path, Writer],
    *,
    held: bool = False,
    labels: Mapping[str | Path, str] | None = None,
) -> None:
    """Write several files all or nothing.

    Each ``write(temporary_path)`` writes one file beside its target; only when every one
    has succeeded are they moved onto their targets, all or none (:func:`_swap_in`;
    renames within a folder need no space; ``held``: see :func:`outputs_held`). On any
    failure the temporaries are removed and every target is left as it was. Errors are
    ``OSError`` as raised, with the target that failed as their ``target`` attribute
    and its ``labels`` entry (the option that names it) as ``label``.
    """
    staged: list[tuple[Path, str | Path]] = []

    def discard() -> None:
        for temporary, _ in staged:
            with contextlib.suppress(OSError):  # a folder made read-only meanwhile
                temporary.unlink(missing_ok=True)

    def commit() -> None:
        try:
            _swap_in([(temporary, Path(target)) for temporary, target in staged])
        except OSError as exc:
            failed = next(t for _, t in staged if Path(t) == exc.target)
            exc.target = failed
            exc.label = (labels or {}).get(failed)
            raise

    current = None
    try:
        for current, write in targets.items():
            target = Path(current)
            temporary = _new_temporary(target.parent.resolve(), target.suffix)
            staged.append((temporary, current))
            write(str(temporary))
            with contextlib.suppress(FileNotFoundError):
                before = os.lstat(target)
                if stat.S_ISREG(before.st_mode):  # written over: it keeps its permissions
                    os.chmod(temporary, stat.S_IMODE(before.st_mode))
    except OSError as exc:
        discard()
        exc.target = current
        exc.label = (labels or {}).get(current)
        raise
    except BaseException:
        discard()
        raise
    _into_place(commit, discard, held, whole=len(staged) > 1)


def write_atomically(path: str | Path, write: Writer, *, held: bool = False) -> None:
    """Call ``write(temporary_path)``, then rename the result onto ``path``."""
    write_files_atomically({path: write}, held=held)


def text_writer(text: str) -> Writer:
    def write(temporary: str) -> None:
        with open(temporary, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)

    return write


def content_writer(content: str | bytes) -> Writer:
    """A writer of text (UTF-8, ``\\n`` line ends) or of bytes as they are."""
    if isinstance(content, str):
        return text_writer(content)

    def write(temporary: str) -> None:
        with open(temporary, "wb") as stream:
            stream.write(content)

    return write


def write_text_atomically(path: str | Path, text: str) -> None:
    write_atomically(path, text_writer(text))


def _kind(path: Path) -> str | None:
    """What is at ``path`` without following a final link: "file", "folder", "link"
    (dangling), "other", or None when nothing is."""
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISLNK(info.st_mode):
        try:
            info = os.stat(path)
        except OSError:
            return "link"
    if stat.S_ISDIR(info.st_mode):
        return "folder"
    return "file" if stat.S_ISREG(info.st_mode) else "other"


def _probe(folder: Path, suffix: str, option: str, target: Path) -> None:
    try:
        _new_temporary(folder.resolve(), suffix).unlink()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise AnalyzerError(f"{option} {target}: cannot write in {folder}: {reason}") from None


def _in_the_way(folder: Path, relative: str) -> str | None:
    """Why ``folder/relative`` cannot take a file, or None."""
    parts = Path(relative).parts
    for depth in range(1, len(parts)):
        where = folder.joinpath(*parts[:depth])
        if _kind(where) not in (None, "folder"):
            return f"{where} is not a folder"
    if _kind(folder / relative) not in (None, "file"):
        return f"{folder / relative} is a folder or a special file"
    return None


def _write_into(folder: Path, files: Mapping[str, str | bytes]) -> None:
    """Write ``files`` (relative paths: text or bytes) under a new, private ``folder``."""
    for relative, content in files.items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        content_writer(content)(str(target))


def write_tree_atomically(
    folder: Path, files: Mapping[str, str | bytes], option: str = "--out", *, held: bool = False
) -> None:
    """Write files (relative paths: text or bytes) under ``folder``, all or nothing.

    A new folder is built under a temporary name beside it and renamed into place. In an
    existing folder every file is first staged in a temporary folder inside it and every
    target checked (nothing in the way: a folder where a file goes, a file where a folder
    goes); only then are the files moved into place, by renames, which need no space,
    with interrupts deferred (once begun, every one is made; ``held``: see
    :func:`outputs_held`). Raises ``OSError`` when writing fails, :class:`AnalyzerError`
    when something is in the way; either way the folder is left as it was.
    """
    folder = Path(folder)
    fresh = _kind(folder) is None
    # A fresh folder is built beside its target and renamed into place in one step.
    staging = (folder.parent.resolve() if fresh else folder) / f".tmp-{_fresh_name()}"
    if not fresh:
        for relative in files:
            problem = _in_the_way(folder, relative)
            if problem:
                raise AnalyzerError(f"{option} {folder}: {problem}; nothing was written")

    def commit() -> None:
        if fresh:
            os.rename(staging, folder)
            return
        _swap_in([(staging / relative, folder / relative) for relative in files])

    _staged_tree(staging, files, commit, held)


def _staged_tree(
    staging: Path, files: Mapping[str, str | bytes], commit: Callable[[], None], held: bool
) -> None:
    """Write ``files`` under the new folder ``staging``, then ``commit`` them into place
    (:func:`_into_place`); ``staging`` is removed whatever happens."""

    def discard() -> None:
        if staging.exists():
            _rmtree(staging, ignore_errors=True)

    staging.mkdir()
    try:
        _write_into(staging, files)
    except BaseException:
        discard()
        raise
    _into_place(commit, discard, held, whole=True)


def replace_tree_atomically(
    folder: Path,
    files: Mapping[str, str | bytes],
    option: str = "--out",
    force: bool = False,
    *,
    held: bool = False,
) -> None:
    """Make ``folder`` hold exactly ``files`` (relative paths), all or nothing.

    The new tree is built beside the folder under a temporary name, with the old folder's
    permissions, then swapped in. Without ``force`` an existing folder must still be empty
    when the swap comes (it is removed with ``rmdir``, which refuses anything else); with
    ``force`` it is renamed aside and removed once the new one is in place (put back if
    that rename fails). The swap and the removal run with interrupts deferred: once begun
    they finish (``held``: see :func:`outputs_held`). Raises ``OSError`` when writing
    fails, :class:`AnalyzerError` when the folder is no longer empty; either way the
    folder is left as it was.
    """
    folder = Path(folder)
    if _kind(folder) is None:
        write_tree_atomically(folder, files, option, held=held)
        return
    parent = folder.parent.resolve()
    staging = parent / f".tmp-{_fresh_name()}"
    old = parent / f".old-{_fresh_name()}"

    def commit() -> None:  # with interrupts deferred (_into_place): once begun, finished
        info = os.stat(folder)
        with contextlib.suppress(OSError):  # another owner: only root may give it
            os.chown(staging, info.st_uid, info.st_gid)
        os.chmod(staging, stat.S_IMODE(info.st_mode))
        if force:
            os.rename(folder, old)
            try:
                os.rename(staging, folder)
            except OSError:
                os.rename(old, folder)
                raise
        else:
            try:
                os.rmdir(folder)
            except OSError as exc:
                if exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
                    raise AnalyzerError(
                        f"{option} {folder}: is not empty (--force replaces it); "
                        "nothing was written"
                    ) from None
                raise
            try:
                os.rename(staging, folder)
            except OSError:
                with contextlib.suppress(OSError):
                    os.mkdir(folder, stat.S_IMODE(info.st_mode))
                raise
        if force:
            _remove_tree(old, option, folder)

    _staged_tree(staging, files, commit, held)


def _remove_tree(path: Path, option: str, target: Path) -> None:
    """Remove a folder whole, making read-only folders in it writable on the way; what
    cannot be removed is said in one line (the new output is in place all the same)."""

    def writable_and_again(function, name, _info) -> None:
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(name), 0o700)
            function(name)

    _rmtree(path, onerror=writable_and_again)
    if os.path.lexists(path):
        tell(f"{option} {target}: written; the old folder could not be removed: it is at {path}")


def is_empty_folder(path: Path) -> bool:
    """Is ``path`` a folder with nothing in it (hidden files count)?"""
    try:
        with os.scandir(path) as entries:
            return next(entries, None) is None
    except OSError:
        return False


def check_folder_target(path: str | Path, option: str) -> Path:
    """Refuse, before any work, an output folder that cannot be written: an empty name, a
    file or a broken link in its place, a missing or read-only parent."""
    if str(path) == "":
        raise AnalyzerError(f"{option} '': name a folder")
    folder = Path(path)
    try:
        kind = _kind(folder)
        if kind == "link":
            raise AnalyzerError(f"{option} {folder}: is a broken symbolic link")
        if kind not in (None, "folder"):
            raise AnalyzerError(f"{option} {folder}: exists and is not a folder")
        if kind is None:
            parent = folder.parent
            parent_kind = _kind(parent)
            if parent_kind != "folder":
                what = "does not exist" if parent_kind is None else "is not a folder"
                raise AnalyzerError(f"{option} {folder}: {parent} {what}")
        _probe(folder if kind == "folder" else folder.parent, "", option, folder)
    except OSError as exc:  # a name too long, a loop of links, ...
        raise AnalyzerError(f"{option} {folder}: {exc.strerror or exc}") from None
    return folder


def check_replaceable_folder(path: str | Path, option: str, force: bool) -> Path:
    """Refuse, before any work, a folder that an output would replace whole: as
    :func:`check_folder_target`, and not a symbolic link; if it exists, empty unless
    ``force``, in a parent that takes the new folder, and not holding the current folder
    (nor an input: :func:`check_inputs_kept`, for every command)."""
    folder = check_folder_target(path, option)
    if os.path.islink(folder):
        raise AnalyzerError(f"{option} {folder}: is a symbolic link: name the folder itself")
    if _kind(folder) != "folder":
        return folder
    if not force and not is_empty_folder(folder):
        raise AnalyzerError(f"{option} {folder}: is not empty (--force replaces it)")
    here = folder.resolve()
    if Path.cwd().resolve().is_relative_to(here):
        raise AnalyzerError(f"{option} {folder}: holds the current folder: choose another folder")
    _probe(here.parent, "", option, folder)
    return folder


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
    try:
        folder = target.parent
        folder_kind = _kind(folder)
        if folder_kind != "folder":
            what = "does not exist" if folder_kind is None else "is not a folder"
            raise AnalyzerError(f"{option} {target}: folder {folder} {what}")
        kind = _kind(target)
        if kind == "folder":
            raise AnalyzerError(f"{option} {target}: is a folder, not a file")
        if kind == "other":
            raise AnalyzerError(f"{option} {target}: exists and is not a regular file")
        _probe(folder, target.suffix, option, target)
    except OSError as exc:  # a name too long, a loop of links, ...
        raise AnalyzerError(f"{option} {target}: {exc.strerror or exc}") from None
    return target


def check_outputs(outputs: Mapping[str, tuple[str | Path | None, tuple[str, ...]]]) -> None:
    """Refuse, before any work, output options (option -> (path or None, suffixes)) that
    cannot be written (:func:`check_writable`) or that name the same file twice."""
    seen: list[tuple[Path, str]] = []
    for option, (path, suffixes) in outputs.items():
        if path is None:
            continue
        target = check_writable(path, option, suffixes)
        for earlier, other in seen:
            if is_same_file(target, earlier):
                raise AnalyzerError(
                    f"{option} {target}: {other} names the same file; give each output its own"
                )
        seen.append((target, option))


def check_inputs_kept(
    outputs: Sequence[tuple[str, str | Path, str | Path | None]],
    inputs: Sequence[tuple[str, str | Path]],
) -> None:
    """Refuse, before any work, an output that would be written over a file the command
    reads, however either is spelt (relative or absolute, through ``..``, a symbolic or
    a hard link: :func:`is_same_file`).

    ``outputs``: (option, path given, file written): the path given, a file written in
    the folder given, or None where the folder given is replaced whole (then no input
    may lie in it). ``inputs``: (what, path), ``what`` as the message names the input.
    """
    for option, given, written in outputs:
        for what, path in inputs:
            if written is not None and is_same_file(written, path):
                if written == given:
                    raise AnalyzerError(f"{option} {given}: is {what}: choose another file")
                raise AnalyzerError(
                    f"{option} {given}: would write {written} over {what}: choose another folder"
                )
            real = Path(os.path.realpath(path))
            if written is None and real.is_relative_to(os.path.realpath(given)):
                told = "is" if is_same_file(given, path) else "holds"
                raise AnalyzerError(f"{option} {given}: {told} {what}: choose another folder")


def is_same_file(first: str | Path, second: str | Path) -> bool:
    """Do the two names reach one file (a link, a hard link, another spelling)?"""
    try:
        return os.path.samefile(first, second)
    except OSError:  # one is not there yet
        key = os.path.normcase
        return key(os.path.realpath(first)) == key(os.path.realpath(second))


def output_error(option: str, target: str | Path, exc: OSError) -> AnalyzerError:
    """The one-line error for a failed write of an output."""
    reason = exc.strerror or str(exc)
    return AnalyzerError(f"{option} {target}: cannot write: {reason}; nothing was written")


#: Bidirectional controls: they reorder what a terminal shows, so text could pass for
#: other text (an override, embedding or isolate, or its end; and the direction marks,
#: which move the text around them).
_BIDI_CONTROLS = frozenset(
    ("LRO", "RLO", "LRE", "RLE", "PDF", "LRI", "RLI", "FSI", "PDI", "L", "R", "AL")
)


#: The control characters of ASCII that are not allowed (the only characters of ASCII
#: the check below refuses).
_ASCII_CONTROLS = Pattern(r"[\x00-\x08\x0b-\x1f\x7f]")


def _check_text(text: str, where: str) -> None:
    if text.isascii() and _ASCII_CONTROLS.search(text) is None:
        return  # the common case, without looking up every character
    import unicodedata

    for char in text:
        category = unicodedata.category(char)
        if (
            (category == "Cc" and char not in _ALLOWED_CONTROLS)
            or category in ("Zl", "Zp")  # line and paragraph separators
            or (category == "Cf" and unicodedata.bidirectional(char) in _BIDI_CONTROLS)
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
        elif isinstance(value, Mapping):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise AnalyzerError(f"{where}: every key must be text, got {key!r}")
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


def shipped_folder(package: str, *parts: str) -> Path | Traversable:
    """A folder shipped inside ``package`` (``parts`` below it): a plain path where the
    package is files on disk, as every pip install leaves it (editable, wheel, --user),
    else :mod:`importlib.resources`' view of it (a zipped package). The plain path first:
    importing importlib.resources' machinery costs a command's start several ms."""
    import importlib

    location = getattr(importlib.import_module(package), "__file__", None)
    if location:
        folder = Path(location).parent.joinpath(*parts)
        if folder.is_dir():
            return folder
    import importlib.resources

    return importlib.resources.files(package).joinpath(*parts)


def read_input(path: Path | Traversable) -> bytes:
    """The bytes of an untrusted input file: a regular file of at most
    :data:`MAX_INPUT_BYTES` (a device, a FIFO or an endless file is refused, not read)."""
    if not isinstance(path, Path):  # shipped with the package
        return path.read_bytes()
    try:
        # Non-blocking, so that a FIFO is refused at once instead of waiting for a writer.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(descriptor, "rb") as stream:
            info = os.fstat(descriptor)
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


def read_toml(path: Path | Traversable, keep: bool = False) -> dict[str, Any]:
    """Read an untrusted TOML file; every failure is one :class:`AnalyzerError`
    (``keep``: a shipped file, its data kept parsed, :func:`toml_data`)."""
    return parse_toml(read_input(path), path, keep)


#: The layout of the parsed TOML kept in the cache folder (a change makes older files
#: strangers, parsed again).
_PARSED_FORMAT = 1


def toml_data(raw: bytes, keep: bool = False) -> dict[str, Any]:
    """``tomllib.loads`` of ``raw`` (UTF-8; a byte-order mark, as some editors write, is
    not part of the text). Where ``keep`` (a file shipped with the package: a bounded
    set), the same data read back from the cache folder (:func:`user_cache_folder`;
    none where ``$BACCARAT_ODDS_CACHE`` is ``off``), where an earlier process kept it
    as JSON under the digest of ``raw``: the TOML parser is written in Python, and
    parsing the seed game, its claims and the report's words took a tenth of a report's
    start. Data JSON cannot hold as it is (dates) is not kept.

    Parameters
    ----------
    raw : bytes
        The file's bytes.
    keep : bool
        Keep the data parsed, and read it back (a shipped file only: the kept files stay
        a bounded set).

    Returns
    -------
    dict
        What ``tomllib.loads`` returns for the text.

    Raises
    ------
    UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError, ValueError
        As ``tomllib.loads`` does (a file is parsed, never read back, until it parses).
    """
    chosen = os.environ.get("BACCARAT_ODDS_CACHE")
    if not keep or (chosen is not None and chosen.strip().lower() in ("", "off")):
        return _parsed_toml(raw)
    import hashlib  # (here: a start that reads no TOML needs neither)
    import json

    digest = hashlib.sha256(raw).hexdigest()
    path = user_cache_folder(chosen) / f"toml-{digest}.json"  # (beside the stored counts)
    try:
        kept = json.loads(path.read_bytes())
        if (
            kept.get("format") == _PARSED_FORMAT
            and kept.get("digest") == digest
            and type(kept.get("data")) is dict
        ):
            return kept["data"]
    except (OSError, ValueError, RecursionError, AttributeError):  # absent or not ours
        pass
    data = _parsed_toml(raw)
    try:
        text = json.dumps({"format": _PARSED_FORMAT, "digest": digest, "data": data})
        if json.loads(text)["data"] != data:  # (kept only where it reads back the same)
            return data
    except (TypeError, ValueError, RecursionError):  # dates, or nested too deep
        return data
    temporary = path.with_name(f".toml-{digest}-{os.getpid()}.json")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError:  # read-only, full, gone: the data is in hand all the same
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
    return data


def _parsed_toml(raw: bytes) -> dict[str, Any]:
    # utf-8-sig: a byte-order mark, as some editors write, is not part of the text.
    import tomllib  # (here: a start whose files are kept parsed never imports it)

    return tomllib.loads(raw.decode("utf-8-sig"))


def parse_toml(raw: bytes, path: Path | Traversable | str, keep: bool = False) -> dict[str, Any]:
    """Parse the bytes of an untrusted TOML file read from ``path`` (named in messages);
    every failure is one :class:`AnalyzerError` (``keep``: a shipped file, its data kept
    parsed, :func:`toml_data`)."""
    try:
        data = toml_data(raw, keep)
    except UnicodeDecodeError:
        raise AnalyzerError(f"{path}: invalid TOML: not UTF-8 text") from None
    except RecursionError:
        raise AnalyzerError(f"{path}: nested more than {MAX_TOML_DEPTH} levels deep") from None
    except ValueError as exc:
        import tomllib  # (imported already: the file was parsed)

        if isinstance(exc, tomllib.TOMLDecodeError):
            raise AnalyzerError(f"{path}: invalid TOML: {exc}") from None
        # an integer of more digits than Python converts
        raise AnalyzerError(f"{path}: invalid TOML: a number with too many digits") from None
    check_untrusted(data, str(path))
    return data
