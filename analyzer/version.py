"""The package's version, and the git commit of the code where it is a checkout.

Both are worked out when asked for: reading the installed metadata, or running git,
costs a command's start time that only ``--version`` and ``analyzer.__version__`` need.
"""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

#: The distribution's name on PyPI (the import name is ``analyzer``).
DISTRIBUTION = "baccarat-odds"
#: The version said where the package is not installed (run from a bare source tree).
UNKNOWN = "0+unknown"
#: Seconds git may take to say the commit before it is left out.
GIT_TIMEOUT = 5


def package_version() -> str:
    """The installed package's version (:data:`UNKNOWN` when it is not installed)."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return UNKNOWN


def git_commit() -> str | None:
    """``git describe`` of the checkout the package runs from (``v0.1.0-3-gabc1234``, or
    the short commit where no tag is reached; ``-dirty`` where files changed), or None:
    not run from a checkout, git not installed, or git failing in any way."""
    import shutil
    import subprocess

    root = Path(__file__).resolve().parents[1]
    if not (root / ".git").exists():  # (a folder in a checkout, a file in a worktree)
        return None
    git = shutil.which("git")
    if git is None:
        return None
    try:
        done = subprocess.run(
            [git, "-C", str(root), "describe", "--tags", "--always", "--dirty"],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError, UnicodeDecodeError):
        return None
    described = done.stdout.strip()
    if done.returncode != 0 or not described or len(described.splitlines()) != 1:
        return None
    return described
