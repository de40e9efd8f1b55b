"""The package's version, and the git commit said where the code is a checkout."""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
from pathlib import Path

import pytest

import analyzer
from analyzer import version

ROOT = Path(version.__file__).resolve().parents[1]


def test_the_version_is_the_installed_distributions() -> None:
    assert analyzer.__version__ == importlib.metadata.version("baccarat-odds")
    assert "__version__" in dir(analyzer)


def test_a_package_not_installed_says_so(monkeypatch) -> None:
    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert version.package_version() == version.UNKNOWN


@pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout"
)
def test_a_checkout_names_its_commit() -> None:
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    commit = version.git_commit()
    assert commit is not None and "\n" not in commit
    # "v1-2-gSHA[-dirty]" or "SHA[-dirty]": the short commit is in it either way.
    assert head[:7] in commit


def test_no_git_no_commit(monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert version.git_commit() is None


def test_git_failing_is_no_commit(monkeypatch, tmp_path) -> None:
    fake = tmp_path / "git"
    fake.write_text("#!/bin/sh\necho 'fatal: not a git repository' >&2\nexit 128\n")
    fake.chmod(0o755)
    monkeypatch.setattr(shutil, "which", lambda name: str(fake))
    monkeypatch.setattr(Path, "exists", lambda self: True)
    assert version.git_commit() is None


def test_git_that_cannot_run_is_no_commit(monkeypatch) -> None:
    def broken(*args, **kwargs):
        raise OSError("exec format error")

    monkeypatch.setattr(shutil, "which", lambda name: "/bin/git")
    monkeypatch.setattr(Path, "exists", lambda self: True)
    monkeypatch.setattr(subprocess, "run", broken)
    assert version.git_commit() is None


def test_the_package_ships_its_type_hints() -> None:
    """PEP 561: ``py.typed`` beside the package's modules, listed as package data so a
    wheel carries it."""
    import tomllib

    assert (ROOT / "analyzer" / "py.typed").is_file()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["analyzer"]
