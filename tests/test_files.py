"""Files in and out: untrusted TOML read with one clear error, outputs written whole."""

from __future__ import annotations

import errno
import os
import re
import signal
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

import analyzer.files as files
from analyzer.errors import AnalyzerError
from analyzer.files import (
    MAX_TOML_DEPTH,
    check_folder_target,
    check_outputs,
    check_untrusted,
    check_writable,
    read_toml,
    text_writer,
    write_files_atomically,
    write_tree_atomically,
)
from analyzer.interrupts import interrupts_raised


def _failing(temporary: str) -> None:
    raise OSError(28, "No space left on device")


def _leftovers(folder) -> list[str]:
    return sorted(p.name for p in folder.rglob(".tmp-*"))


def test_several_files_are_written_all_or_nothing(tmp_path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("old a")
    with pytest.raises(OSError, match="No space left"):
        write_files_atomically({a: text_writer("new a"), b: _failing})
    assert a.read_text() == "old a" and not b.exists()
    assert _leftovers(tmp_path) == []
    write_files_atomically({a: text_writer("new a"), b: text_writer("new b\n")})
    assert (a.read_text(), b.read_text()) == ("new a", "new b\n")
    assert _leftovers(tmp_path) == []


def test_output_files_honour_the_umask(tmp_path) -> None:
    old = os.umask(0o077)
    try:
        write_files_atomically({tmp_path / "x.txt": text_writer("x")})
    finally:
        os.umask(old)
    assert (tmp_path / "x.txt").stat().st_mode & 0o777 == 0o600


def test_a_file_written_over_keeps_its_permissions(tmp_path) -> None:
    """A result made private stays private when written again; a new one follows the
    umask; a link written over is replaced by the file, its target left alone."""
    private, target = tmp_path / "private.csv", tmp_path / "target.csv"
    for path in (private, target):
        path.write_text("old")
    private.chmod(0o600)
    target.chmod(0o640)
    (tmp_path / "link.csv").symlink_to(target)
    old = os.umask(0o022)
    try:
        write_files_atomically(
            {
                private: text_writer("new"),
                tmp_path / "fresh.csv": text_writer("new"),
                tmp_path / "link.csv": text_writer("new"),
            }
        )
    finally:
        os.umask(old)
    assert private.read_text() == "new" and private.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "fresh.csv").stat().st_mode & 0o777 == 0o644
    assert not (tmp_path / "link.csv").is_symlink()
    assert (tmp_path / "link.csv").stat().st_mode & 0o777 == 0o644
    assert target.read_text() == "old" and target.stat().st_mode & 0o777 == 0o640


def test_a_tree_goes_in_whole_or_not_at_all(tmp_path) -> None:
    out = tmp_path / "out"
    write_tree_atomically(out, {"en/a.txt": "a", "b.txt": "b"})
    assert (out / "en" / "a.txt").read_text() == "a" and (out / "b.txt").read_text() == "b"
    (out / "ms").write_text("a file where a folder goes")
    with pytest.raises(AnalyzerError, match=r"ms is not a folder; nothing was written$"):
        write_tree_atomically(out, {"en/a.txt": "new", "ms/a.txt": "x"})
    assert (out / "en" / "a.txt").read_text() == "a"
    (out / "en" / "c.txt").mkdir()
    with pytest.raises(AnalyzerError, match="is a folder or a special file; nothing was written"):
        write_tree_atomically(out, {"en/c.txt": "x"})
    write_tree_atomically(out, {"en/a.txt": "new"})  # over an existing folder
    assert (out / "en" / "a.txt").read_text() == "new" and (out / "b.txt").read_text() == "b"
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize(
    ("name", "suffixes", "message"),
    [
        ("", None, "name a file"),
        ("chart.jpg", (".png",), "name a .png file"),
        ("missing/chart.png", (".png",), "does not exist"),
        ("folder", None, "is a folder, not a file"),
    ],
)
def test_check_writable_refuses_before_any_work(tmp_path, name, suffixes, message) -> None:
    (tmp_path / "folder").mkdir()
    target = str(tmp_path / name) if name else ""
    with pytest.raises(AnalyzerError, match=message):
        check_writable(target, "--plot", suffixes)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


def test_check_writable_accepts_a_new_file_and_leaves_nothing(tmp_path) -> None:
    assert check_writable(tmp_path / "e.PNG", "--plot", (".png",)) == tmp_path / "e.PNG"
    assert list(tmp_path.iterdir()) == []


def test_check_folder_target(tmp_path) -> None:
    assert check_folder_target(tmp_path / "new", "--out") == tmp_path / "new"
    (tmp_path / "file").write_text("x")
    for path, message in (
        ("", "name a folder"),
        (tmp_path / "file", "exists and is not a folder"),
        (tmp_path / "none" / "deeper", "does not exist"),
        (tmp_path / "file" / "x", "is not a folder"),
    ):
        with pytest.raises(AnalyzerError, match=message):
            check_folder_target(path, "--out")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


def test_untrusted_data_is_bounded_and_printable() -> None:
    check_untrusted({"a": _nested(MAX_TOML_DEPTH - 1), "b": "tab\tand\nnewline"}, "f")
    with pytest.raises(AnalyzerError, match=f"^f: nested more than {MAX_TOML_DEPTH} levels deep$"):
        check_untrusted({"a": _nested(MAX_TOML_DEPTH)}, "f")
    for text, code in (("\x1b[2J", "U+001B"), ("a\u202eb", "U+202E"), ("a\u2028b", "U+2028")):
        with pytest.raises(AnalyzerError, match=re.escape(f"control character {code},")):
            check_untrusted({"name": text}, "f")
        with pytest.raises(AnalyzerError, match=re.escape(f"control character {code},")):
            check_untrusted({text: 1}, "f")
    with pytest.raises(AnalyzerError, match="every key must be text, got 1"):
        check_untrusted({1: "x"}, "f")


def test_every_ascii_character_is_judged_by_its_unicode_category() -> None:
    # The check of ASCII text takes a shortcut: each of the 128 characters, alone and
    # inside text, is refused exactly when its category (looked up here) says so.
    for code in range(128):
        char = chr(code)
        refused = unicodedata.category(char) == "Cc" and char not in "\t\n"
        for text in (char, f"ab{char}cd"):
            if refused:
                with pytest.raises(AnalyzerError, match=f"U\\+{code:04X},"):
                    check_untrusted({"name": text}, "f")
            else:
                check_untrusted({"name": text}, "f")


def test_read_toml(tmp_path, monkeypatch) -> None:
    path = tmp_path / "p.toml"
    path.write_bytes(b"\xef\xbb\xbfname = 'x'\n")  # a byte-order mark is not part of the text
    assert read_toml(path) == {"name": "x"}
    for content, message in (
        (b"\xff\xfe", "not UTF-8 text"),
        (b"name = [", "invalid TOML"),
        (b"name = '\x1b'", "invalid TOML"),
        ("x = " + "[" * 20 + "]" * 20, "nested more than"),
    ):
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        with pytest.raises(AnalyzerError, match=message):
            read_toml(path)
    path.write_text("name = 'a long enough file'\n")
    monkeypatch.setattr(files, "MAX_INPUT_BYTES", 10)
    with pytest.raises(AnalyzerError, match=r"p\.toml: larger than"):
        read_toml(path)
    with pytest.raises(AnalyzerError, match=r"missing\.toml: no such file$"):
        read_toml(tmp_path / "missing.toml")
    with pytest.raises(AnalyzerError, match="is a directory, not a file"):
        read_toml(tmp_path)


def test_replace_tree_swaps_a_folder_whole(tmp_path, monkeypatch) -> None:
    from analyzer.files import replace_tree_atomically

    folder = tmp_path / "site"
    replace_tree_atomically(folder, {"a/b.txt": "text", "c.png": b"\x89PNG"})
    assert (folder / "a" / "b.txt").read_text() == "text"
    assert (folder / "c.png").read_bytes() == b"\x89PNG"
    replace_tree_atomically(folder, {"d.txt": "new"}, force=True)
    assert sorted(p.name for p in folder.rglob("*")) == ["d.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["site"]
    # The new folder cannot be renamed into place: the old one is put back as it was.
    real = os.rename
    calls = {"n": 0}

    def rename(source, target):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(18, "Invalid cross-device link")
        return real(source, target)

    monkeypatch.setattr(os, "rename", rename)
    with pytest.raises(OSError, match="cross-device"):
        replace_tree_atomically(folder, {"e.txt": "newer"}, force=True)
    assert sorted(p.name for p in folder.rglob("*")) == ["d.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["site"]


def test_replace_tree_without_force_takes_only_an_empty_folder(tmp_path) -> None:
    """Empty when checked is not enough: the folder must still be empty at the swap (a
    file written meanwhile is never deleted), and the new folder keeps its permissions."""
    from analyzer.files import replace_tree_atomically

    folder = tmp_path / "site"
    folder.mkdir()
    folder.chmod(0o2750)
    replace_tree_atomically(folder, {"a.txt": "new"})
    assert (folder / "a.txt").read_text() == "new"
    assert folder.stat().st_mode & 0o7777 == 0o2750
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "precious.txt").write_text("mine")
    with pytest.raises(AnalyzerError, match=r"is not empty \(--force replaces it\); nothing"):
        replace_tree_atomically(tmp_path / "busy", {"a.txt": "new"})
    assert [p.name for p in (tmp_path / "busy").iterdir()] == ["precious.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["busy", "site"]


def test_replace_tree_removes_an_old_folder_with_read_only_parts(tmp_path) -> None:
    from analyzer.files import replace_tree_atomically

    folder = tmp_path / "site"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "z").write_text("old")
    (folder / "sub").chmod(0o555)
    replace_tree_atomically(folder, {"a.txt": "new"}, force=True)
    assert [p.name for p in tmp_path.iterdir()] == ["site"]
    assert [p.name for p in folder.iterdir()] == ["a.txt"]


def test_a_folder_to_replace_is_checked_first(tmp_path, monkeypatch) -> None:
    from analyzer.files import check_inputs_kept, check_replaceable_folder

    site = tmp_path / "site"
    site.mkdir()
    (site / "page.html").write_text("x")
    with pytest.raises(AnalyzerError, match=r"is not empty \(--force replaces it\)$"):
        check_replaceable_folder(site, "--site", force=False)
    assert check_replaceable_folder(site, "--site", force=True) == site
    (tmp_path / "link").symlink_to(site)
    with pytest.raises(AnalyzerError, match="is a symbolic link: name the folder itself"):
        check_replaceable_folder(tmp_path / "link", "--site", force=True)
    (site / "mine.toml").write_text("")
    with pytest.raises(AnalyzerError, match=r"holds the paytable \(mine\.toml\): choose another"):
        check_inputs_kept(
            [("--site", site, None)], [("the paytable (mine.toml)", site / "mine.toml")]
        )
    monkeypatch.chdir(site)
    with pytest.raises(AnalyzerError, match="holds the current folder"):
        check_replaceable_folder(".", "--site", force=True)
    with pytest.raises(AnalyzerError, match="holds the current folder"):
        check_replaceable_folder(tmp_path, "--site", force=True)


def test_an_interrupt_while_files_move_in_waits_for_all_of_them(tmp_path, monkeypatch) -> None:
    """Over an existing folder the files are moved in one by one: Ctrl-C then must not
    leave some old and some new."""
    out = tmp_path / "out"
    write_tree_atomically(out, {"a.txt": "old", "b.txt": "old", "c.txt": "old"})
    real_rename = os.rename
    moved = []

    def interrupted_rename(source, target) -> None:
        if not moved:
            signal.raise_signal(signal.SIGINT)  # arrives as the first file moves in
        real_rename(source, target)
        if ".tmp-" in str(source):
            moved.append(target)

    monkeypatch.setattr("analyzer.files.os.rename", interrupted_rename)
    with interrupts_raised():
        write_tree_atomically(out, {"a.txt": "new", "b.txt": "new", "c.txt": "new"})
    assert len(moved) == 3
    assert {p.name: p.read_text() for p in out.iterdir()} == dict.fromkeys(
        ("a.txt", "b.txt", "c.txt"), "new"
    )


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "argv",
    [
        ["eor", "--bet", "tie", "--mode", "commission", "--plot", "{t}/ev.png"],
        [
            *("count", "--bet", "tie", "--shoes", "2", "--perfect", "--workers", "1"),
            *("--no-progress", "--work-dir", "{t}/w", "--out", "{t}/r.csv", "--gain-plot"),
            "{t}/g.png",
        ],
    ],
    ids=["eor", "count"],
)
def test_a_command_whose_output_fails_leaves_no_files(tmp_path, argv) -> None:
    """Standard output on a full disk: one line, exit 2, and no output file (the files
    go into place only once the standard output is written). Not docs: its standard
    output only reports the files written, after them."""
    argv = [a.replace("{t}", str(tmp_path)) for a in argv]
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "analyzer", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
            check=False,
        )
    errors = [line for line in done.stderr.splitlines() if "warning: " not in line]
    assert done.returncode == 2 and len(errors) == 1, done.stderr  # (a short count warns too)
    assert "No space left on device" in done.stderr
    left = sorted(p.name for p in tmp_path.iterdir() if p.name != "w")
    assert left == [], left


def test_files_move_in_all_or_none(tmp_path, monkeypatch) -> None:
    """A target that cannot take its new file (here a folder on another device) undoes
    the moves already made: every old file is back, nothing is left beside them."""
    out = tmp_path / "out"
    write_tree_atomically(out, {"a/x.txt": "old", "b/x.txt": "old", "c.txt": "old"})
    real_rename = os.rename

    def other_device(source, target) -> None:
        if Path(target) == out / "b" / "x.txt" and ".tmp-" in str(source):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        real_rename(source, target)

    with monkeypatch.context() as patch:
        patch.setattr("analyzer.files.os.rename", other_device)
        with pytest.raises(OSError) as raised:
            write_tree_atomically(out, {"a/x.txt": "new", "b/x.txt": "new", "c.txt": "new"})
    assert raised.value.target == out / "b" / "x.txt"
    assert {str(p.relative_to(out)) for p in out.rglob("*")} == {
        "a",
        "b",
        "a/x.txt",
        "b/x.txt",
        "c.txt",
    }
    assert all(p.read_text() == "old" for p in out.rglob("*.txt"))
    # A target turned into a folder after the checks: the file before it is put back.
    files = {tmp_path / "r.csv": text_writer("new"), tmp_path / "g.png": text_writer("new")}
    (tmp_path / "r.csv").write_text("old")
    (tmp_path / "g.png").mkdir()
    with pytest.raises(OSError) as raised:
        write_files_atomically(files, labels={tmp_path / "g.png": "--gain-plot"})
    assert raised.value.label == "--gain-plot" and raised.value.target == tmp_path / "g.png"
    assert (tmp_path / "r.csv").read_text() == "old"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith((".tmp-", ".old-"))]


def test_two_outputs_reaching_one_file_are_refused_by_any_name(tmp_path) -> None:
    """Another spelling, a symbolic link and a hard link to the same file all name it."""
    report = tmp_path / "report.csv"
    report.write_text("old\n")
    (tmp_path / "soft.csv").symlink_to(report)
    os.link(report, tmp_path / "hard.csv")
    for other in (tmp_path / "." / "report.csv", tmp_path / "soft.csv", tmp_path / "hard.csv"):
        with pytest.raises(AnalyzerError, match="--out names the same file"):
            check_outputs({"--out": (report, (".csv",)), "--report-out": (other, (".csv",))})
    check_outputs({"--out": (report, (".csv",)), "--report-out": (tmp_path / "b.csv", (".csv",))})
    assert report.read_text() == "old\n"


def test_a_shipped_folder_is_a_path_on_disk_and_found_in_a_zipped_package(tmp_path) -> None:
    from analyzer.files import shipped_folder

    folder = shipped_folder("analyzer.paytables", "shipped")
    assert isinstance(folder, Path) and (folder / "paytables" / "seed-game.toml").is_file()
    # A package imported from a zip file has no folder on disk: importlib.resources reads it.
    import zipfile

    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zpkg/__init__.py", "")
        z.writestr("zpkg/data/x.toml", "a = 1\n")
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from pathlib import Path\n"
        "from analyzer.files import read_toml, shipped_folder\n"
        "folder = shipped_folder('zpkg', 'data')\n"
        "assert not isinstance(folder, Path)\n"
        "print(read_toml(folder / 'x.toml'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(archive)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "{'a': 1}"


def test_shipped_toml_is_kept_parsed_and_read_back_the_same(tmp_path, monkeypatch) -> None:
    """A shipped file's data is kept as JSON in the cache folder under the digest of its
    bytes and read back equal; a kept file that is not whole is parsed again; another
    file's data, data with dates, or a cache turned off, is not kept."""
    monkeypatch.setenv("BACCARAT_ODDS_CACHE", str(tmp_path))
    raw = b'name = "x"\n[[bet]]\nid = "a"\npays = 1.5\nbig = 123456789012345678901234567890\n'
    parsed = files.toml_data(raw, keep=True)
    (kept,) = tmp_path.glob("toml-*.json")
    assert files.toml_data(raw, keep=True) == parsed
    kept.write_text('{"format": 1, "digest": "x", "data": {"name": "forged"}}')
    assert files.toml_data(raw, keep=True) == parsed  # not ours: parsed again, kept again
    assert files.toml_data(raw, keep=True)["name"] == "x"
    kept.unlink()
    files.toml_data(raw)  # another file (a user's): parsed, not kept
    files.toml_data(b"when = 1979-05-27\n", keep=True)  # a date: JSON cannot hold it
    monkeypatch.setenv("BACCARAT_ODDS_CACHE", "off")
    files.toml_data(b"x = 2\n", keep=True)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(Exception, match="Invalid"):
        files.toml_data(b"x = = 2\n", keep=True)
