"""``baccarat-odds docs``: every odds table of a paytable, in every format and language."""

from __future__ import annotations

import argparse

from analyzer.analysis.exact import Analysis
from analyzer.analysis.verify import published_max_rtp
from analyzer.cli.options import add_paytable_option, add_shoe_options, exact_analysis
from analyzer.files import check_folder_target, output_error, write_tree_atomically
from analyzer.paytables.library import load_paytable
from analyzer.reports.formats import EXTENSIONS, FORMATS
from analyzer.reports.i18n import LANGUAGES
from analyzer.reports.tables import render_report

HELP = "write a paytable's odds tables in every format and language"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_paytable_option(parser)
    add_shoe_options(parser)
    parser.add_argument("--out", required=True, metavar="DIR", help="folder to write")


def render_docs(analysis: Analysis, claim: str | None) -> dict[str, str]:
    """Every table of a paytable: ``LANG/summary.EXT`` and ``LANG/detail.EXT``."""
    files = {}
    for lang in LANGUAGES:
        for fmt in FORMATS:
            for name, detail in (("summary", False), ("detail", True)):
                files[f"{lang}/{name}.{EXTENSIONS[fmt]}"] = render_report(
                    analysis, fmt, detail=detail, claimed_max_rtp=claim, lang=lang
                )
    return files


def run(args: argparse.Namespace) -> tuple[str, int]:
    paytable = load_paytable(args.paytable)
    out = check_folder_target(args.out, "--out")
    analysis = exact_analysis(args, paytable)
    files = render_docs(analysis, published_max_rtp(paytable))  # all rendered before any write
    try:
        write_tree_atomically(out, files)
    except OSError as exc:
        raise output_error("--out", out, exc) from None
    return f"wrote {len(files)} files to {out}\n", 0
