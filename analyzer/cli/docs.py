"""``baccarat-odds docs``: a paytable's odds tables in every format and language
(``--out``), or the help pages of paytables as a static site (``--site``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.cli.eor import effects_with_progress
from analyzer.cli.options import (
    add_progress_options,
    add_shoe_options,
    exact_analysis,
    reads,
    shoe_fields,
    shoe_from_args,
    unknowns_option,
    writes,
)
from analyzer.errors import AnalyzerError, one_line
from analyzer.files import (
    check_folder_target,
    check_replaceable_folder,
    output_error,
    replace_tree_atomically,
    write_tree_atomically,
)
from analyzer.paytables.library import SEED_GAME, is_path, library_names, load_paytable
from analyzer.reports.formats import EXTENSIONS, FORMATS
from analyzer.reports.i18n import LANGUAGES

if TYPE_CHECKING:  # the analysis, pandas and Numba load when a command runs
    from analyzer.analysis.exact import Analysis

DESCRIPTION = """\
Write a paytable's odds tables in every format and language (--out DIR), or build the help
pages of paytables as a static site (--site DIR), every figure from the exact analysis."""
EXAMPLES = """\
examples:
  baccarat-odds docs --out tables                  # the seed game's
  baccarat-odds docs --site site                   # every shipped paytable
  baccarat-odds docs --site prosperity --paytable prosperity-tree-baccarat --unknowns p=7/113
  baccarat-odds docs --site site --paytable tie-9-to-1 --paytable ez-baccarat --eor --force"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    target = parser.add_mutually_exclusive_group(required=True)
    writes(
        target.add_argument(
            "--out",
            metavar="DIR",
            help="write one paytable's tables, every format and language, and its PAR sheet "
            "workbook (LANG/par-sheet.xlsx)",
        ),
        folder=lambda: [f"{lang}/{name}" for lang, _, name, _ in docs_tables()],
    )
    writes(
        target.add_argument(
            "--site",
            metavar="DIR",
            help="build help pages: index.html and, per paytable, a page in each language "
            "with its rules, payouts, max rounds and exact odds. DIR must be missing or empty "
            "(or --force replaces it whole), and not a symbolic link; the pages describe a "
            "full shoe, so --remove and --shoe do not apply (--decks does)",
        ),
        folder=True,
    )
    reads(
        parser.add_argument(
            "--paytable",
            action="append",
            metavar="FILE|NAME",
            help="a paytable .toml file or a shipped name (default: seed-game for --out, "
            "every shipped paytable for --site; repeatable with --site)",
        ),
        "the paytable read",
        names=True,
    )
    add_shoe_options(parser)
    reads(
        parser.add_argument(
            "--config",
            metavar="SITE.toml",
            help="with --site: the site's configuration (operator, logo, stylesheet, footer, "
            "decimals, languages; default: none, 2 decimals, every language)",
        ),
        "the site configuration",
    )
    parser.add_argument(
        "--unknowns",
        type=unknowns_option,
        default=None,
        metavar="NAME=VALUE,...",
        help="with --site: values of the unknowns of paytables' [multipliers] (e.g. "
        '"p=7/113"); a paytable with unknowns and no values is skipped, and listed (default: '
        "none given)",
    )
    parser.add_argument(
        "--eor",
        action="store_true",
        help="with --site: add each paytable's effects of removal, on analysts' pages of "
        "their own (analyst/NAME/LANG.html, linked from the index; never on a help page)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="with --site: replace the folder even if it is not empty",
    )
    add_progress_options(parser)


#: The PAR sheet workbook ``docs --out`` writes in each language's folder.
WORKBOOK = "par-sheet.xlsx"


def docs_tables() -> list[tuple[str, str, str, bool]]:
    """(language, format, file name, detail) of every file ``docs --out`` writes in each
    language's folder: ``summary.EXT``, ``detail.EXT`` and the PAR sheet workbook."""
    tables = [
        (lang, fmt, f"{name}.{EXTENSIONS[fmt]}", detail)
        for lang in LANGUAGES
        for fmt in FORMATS
        for name, detail in (("summary", False), ("detail", True))
    ]
    return tables + [(lang, "xlsx", WORKBOOK, True) for lang in LANGUAGES]


def render_docs(
    analysis: Analysis, claim: str | None, shoe: dict | None = None
) -> dict[str, str | bytes]:
    """Every table of a paytable (:func:`docs_tables`): ``LANG/summary.EXT`` and
    ``LANG/detail.EXT`` (the JSON files under the report contract, ``shoe`` its shoe),
    and the PAR sheet workbook ``LANG/par-sheet.xlsx``."""
    from tqdm import tqdm

    from analyzer.progress import bar_options
    from analyzer.reports.tables import report_document
    from analyzer.reports.workbook import workbook_bytes
    from analyzer.reports.writers import write_document

    files: dict[str, str | bytes] = {}
    # Each language's summary and detail documents are made once and written in every
    # format (made per file, the records of 2,200 bets took half a minute more). A detail
    # table (and a sheet) a bet: thousands of bets take most of a minute (on a terminal,
    # a bar).
    documents = {}
    for lang, fmt, name, detail in tqdm(
        docs_tables(), desc="tables", unit="file", **bar_options(leave=False)
    ):
        if fmt == "xlsx":
            files[f"{lang}/{name}"] = workbook_bytes(analysis, claimed_max_rtp=claim, lang=lang)
            continue
        if (lang, detail) not in documents:
            documents[lang, detail] = report_document(
                analysis, detail=detail, claimed_max_rtp=claim, lang=lang, shoe=shoe
            )
        files[f"{lang}/{name}"] = write_document(documents[lang, detail], fmt)
    return files


def _tables(args: argparse.Namespace) -> tuple[str, int]:
    from analyzer.paytables.claims import published_max_rtp

    given_options = (
        (args.eor, "--eor"),
        (args.force, "--force"),
        (args.config is not None, "--config"),
        (args.unknowns is not None, "--unknowns"),
    )
    for given, option in given_options:
        if given:
            raise AnalyzerError(f"{option} goes with --site, not --out")
    if args.paytable and len(args.paytable) > 1:
        raise AnalyzerError("--out writes one paytable's tables: give one --paytable")
    paytable = load_paytable(args.paytable[0] if args.paytable else SEED_GAME)
    out = check_folder_target(args.out, "--out")
    analysis = exact_analysis(args, paytable)
    shoe = shoe_fields(args, analysis.shoe, paytable.decks)
    files = render_docs(analysis, published_max_rtp(paytable), shoe)  # all before any write
    try:
        # Not held for the standard output: that only reports this write, so follows it.
        write_tree_atomically(out, files)
    except OSError as exc:
        raise output_error("--out", out, exc) from None
    return f"wrote {len(files)} files to {one_line(str(out))}\n", 0


def _site(args: argparse.Namespace) -> tuple[str, int]:
    from tqdm import tqdm

    from analyzer.progress import bar_options
    from analyzer.reports.site import (
        SitePaytable,
        check_charts,
        page_folders,
        render_site,
        site_games,
    )
    from analyzer.reports.site_config import read_site_config

    if args.remove or args.shoe:
        raise AnalyzerError("--site pages describe a full shoe: --remove and --shoe do not apply")
    if args.config is not None and not args.config:
        raise AnalyzerError("--config: name a file")
    config = read_site_config(args.config) if args.config is not None else None
    # Every shipped paytable: those with unknowns too (made at --unknowns, else listed as
    # skipped, with why).
    names = args.paytable or library_names()
    paytables = [(name, load_paytable(name)) for name in names]  # every file read first
    folders = page_folders(
        [(name, Path(name).stem if is_path(name) else name) for name in names], "--paytable"
    )
    games, skipped = site_games(
        [(slug, paytable) for slug, (_, paytable) in zip(folders, paytables, strict=True)],
        args.unknowns,
    )
    if not games:  # an index of no pages is no site: say why each paytable was skipped
        name, why = skipped[0]
        more = f" (and {len(skipped) - 1} more)" if len(skipped) > 1 else ""
        raise AnalyzerError(f"--site: no paytable to give pages: {one_line(name)}: {why}{more}")
    if args.eor:
        shown = {slug: one_line(name) for slug, name in zip(folders, names, strict=True)}
        check_charts(games, "--eor", shown)
    site = check_replaceable_folder(args.site, "--site", args.force)
    entries = []
    # A bar as --progress says (by default on a terminal only): the pages take seconds,
    # with --eor minutes.
    bar = tqdm(games, desc="help pages", unit="paytable", **bar_options(leave=False))
    for game in bar:
        analysis = exact_analysis(args, game.paytable)
        effects = None
        if args.eor:
            shoe = shoe_from_args(args, game.paytable.decks)
            effects, _ = effects_with_progress(game.paytable, shoe, None, None)
        entries.append(SitePaytable(game.slug, analysis, effects, game.unknowns))
    files = render_site(entries, config, skipped)  # every page rendered before any write
    try:
        replace_tree_atomically(site, files, "--site", force=args.force)
    except OSError as exc:
        raise output_error("--site", site, exc) from None
    pages = sum(name.endswith(".html") for name in files)
    lines = [f"wrote {pages} pages ({len(files)} files) to {one_line(str(site))}"]
    lines += [f"skipped {one_line(name)}: {why}" for name, why in skipped]
    return "\n".join(lines) + "\n", 0


def run(args: argparse.Namespace) -> tuple[str, int]:
    return _site(args) if args.site is not None else _tables(args)
