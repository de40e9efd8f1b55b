"""``baccarat-odds cache``: the runs kept for ``--resume``, listed and removed."""

from __future__ import annotations

import argparse
from pathlib import Path

from analyzer.cli.options import add_format_option
from analyzer.errors import AnalyzerError

DESCRIPTION = """\
List or remove what the tool keeps in the user's cache folder: the saved partitions of
simulate, count and audit runs, kept so that --resume takes up an interrupted run. Each
kept run is named by its id (a digest of everything its result depends on). list shows
each run's id, command, paytable, shoes, saved partitions, size and last change; remove
deletes the runs named (or every kept run with --all); dir prints the folder. A run
working now is never removed. The store of exact counts is not touched (its files are
made again when missing)."""
EXAMPLES = """\
examples:
  baccarat-odds cache dir                       # where runs are kept
  baccarat-odds cache list                      # each kept run: id, command, size, ...
  baccarat-odds cache list --format json
  baccarat-odds cache remove --all              # every kept run (none working now)"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action",
        choices=("list", "remove", "dir"),
        help="list the kept runs, remove some (their ids, or --all), or print the folder",
    )
    parser.add_argument("ids", nargs="*", metavar="ID", help="the runs to remove (remove only)")
    parser.add_argument("--all", action="store_true", help="remove every kept run")
    parser.add_argument(
        "--work-dir",
        metavar="DIR",
        help="the folder runs were kept in (default: runs/ in the user's cache folder, "
        "~/.cache/baccarat-odds/runs, or $BACCARAT_ODDS_CACHE/runs)",
    )
    add_format_option(parser, ("text", "json"))


def _size(count: int) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if count < 1000 or unit == "GB":
            return f"{count} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1000  # type: ignore[assignment]
    raise AssertionError  # pragma: no cover


def _json(action: str, folder: Path, runs: list[dict]) -> str:
    """The cache contract: the folder, and the runs listed (``list``) or removed
    (``remove``; none for ``dir``), a row each."""
    from analyzer.reports.contract import envelope
    from analyzer.reports.formats import json_text

    data = envelope(
        "cache",
        paytable=None,
        shoe=None,
        options={"action": action},
        rows=runs,
        folder=str(folder),
    )
    return json_text(data)


def run(args: argparse.Namespace) -> tuple[str, int]:
    from analyzer.runs.kept import default_runs_folder, kept_runs, remove_runs

    if args.work_dir == "":
        raise AnalyzerError("--work-dir '': name a folder")
    folder = Path(args.work_dir) if args.work_dir is not None else default_runs_folder()
    if args.action != "remove" and (args.ids or args.all):
        raise AnalyzerError(f"cache {args.action} takes no run ids and no --all")
    if args.action == "dir":
        if args.format == "json":
            return _json(args.action, folder, []), 0
        return str(folder) + "\n", 0
    if args.action == "remove":
        if bool(args.ids) == args.all:
            raise AnalyzerError("cache remove: name the runs to remove, or give --all")
        removed = remove_runs(None if args.all else args.ids, folder)
        if args.format == "json":
            return _json(args.action, folder, [run.as_record() for run in removed]), 0
        freed = sum(run.bytes for run in removed)
        return f"removed {len(removed)} kept run(s), {_size(freed)}, from {folder}\n", 0
    runs = kept_runs(folder)
    if args.format == "json":
        return _json(args.action, folder, [run.as_record() for run in runs]), 0
    if not runs:
        return f"no kept runs in {folder}\n", 0
    from tabulate import tabulate

    rows = [
        [
            run.id,
            run.command,
            run.paytable,
            "-" if run.shoes is None else f"{run.shoes:,}",
            f"{run.saved}/{run.partitions}",
            _size(run.bytes),
            run.modified.strftime("%Y-%m-%d %H:%M"),
        ]
        for run in runs
    ]
    headers = ["id", "command", "paytable", "shoes", "saved", "size", "changed (UTC)"]
    total = _size(sum(run.bytes for run in runs))
    table = tabulate(rows, headers, tablefmt="plain", disable_numparse=True)
    return f"{len(runs)} kept run(s) in {folder}, {total}:\n\n{table}\n", 0
