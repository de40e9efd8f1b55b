"""``baccarat-odds certify``: every figure a help page prints, found, stated and checked."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from analyzer.cli.options import (
    add_format_option,
    add_progress_options,
    add_report_out_option,
    check_report_out,
    deliver_report,
    layout,
    reads,
    writes,
)
from analyzer.errors import AnalyzerError

DESCRIPTION = """\
Read a game's help page (HTML, Markdown, plain text in any script, or a PDF's text), find
every figure it prints about the game (percentages such as RTPs, house edges and
probabilities in the page's own decimal and grouping marks, payouts, max rounds, deck
counts), tie each to a bet of the paytable by the names the paytable gives its bets and
paying lines in every language (by table row and column, else by nearness in the text),
and check each with verify at the digits the page printed. The certificate lists every
figure: PASS, FAIL (or FAIL (last digit)), UNMATCHED (tied to no bet, shown with its
snippet), NOT STATEABLE (no claim can state it), HIDDEN (in content the page hides, not
checked), and what the paytable has that the page leaves out; --claims-out writes the
claims it inferred for verify. Exit status 1 when a figure fails, 2 on bad input. Nothing
in the page is executed; a page over 2 MiB (a PDF over 16 MiB) is refused unread."""
EXAMPLES = """\
examples:
  baccarat-odds docs --site site --paytable seed-game     # help pages to certify
  baccarat-odds certify site/seed-game/tl.html --paytable seed-game
  baccarat-odds certify site/seed-game/ms.html --paytable seed-game --claims-out ms.toml
  baccarat-odds verify ms.toml                            # the inferred claims, checked
  baccarat-odds certify site/seed-game/en.html --paytable seed-game --format html --out c.html
  baccarat-odds certify site/seed-game/en.html --paytable seed-game-ms   # exit 1: not its page"""
#: The formats of the certificate.
FORMATS = ("text", "json", "html")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    reads(
        parser.add_argument(
            "page",
            metavar="PAGE",
            help="the help page: an .html/.htm, .md, text or .pdf file (its kind from its "
            "first bytes and name)",
        ),
        "the page read",
    )
    reads(
        parser.add_argument(
            "--paytable",
            required=True,
            metavar="FILE|NAME",
            help="the paytable the page must agree with: a .toml file or a shipped name",
        ),
        "the paytable read",
        names=True,
    )
    writes(
        parser.add_argument(
            "--claims-out",
            metavar="FILE",
            help="also write the claims inferred from the page to FILE (.toml), each with "
            "the page's snippet and place as a comment, for verify (default: none written)",
        )
    )
    parser.add_argument(
        "--rounding",
        choices=("round", "truncate"),
        default="round",
        help="how the page cut its figures' digits: round (half away from zero) or "
        "truncate (default: round)",
    )
    parser.add_argument(
        "--section",
        metavar="HEADING",
        help="read only the section under the heading that holds this text (default: on a "
        "page of several top-level sections, the one whose heading names the paytable; "
        "else the whole page)",
    )
    add_format_option(parser, FORMATS, "--out")
    add_report_out_option(parser)
    add_progress_options(parser)


def page_words(paytable: Any) -> Any:
    """The words the help pages give the paytable's modes, in every language (see
    :func:`analyzer.reports.i18n.page_words`)."""
    from analyzer.reports.i18n import page_words as words

    return words(paytable)


def run(args: argparse.Namespace) -> tuple[str, int]:
    from analyzer.analysis.certify import certify_page, claims_toml
    from analyzer.analysis.page import read_page
    from analyzer.files import check_outputs, content_writer, output_error, write_atomically
    from analyzer.paytables.library import is_path, load_paytable
    from analyzer.reports.writers import write_document

    if args.format not in FORMATS:
        raise AnalyzerError(
            f"--out {args.report_out}: certify writes {', '.join(FORMATS)} (give a .txt, "
            ".json or .html file, or --format)"
        )
    check_report_out(args.format, args.report_out)
    check_outputs({"--out": (args.report_out, None), "--claims-out": (args.claims_out, (".toml",))})
    paytable = load_paytable(args.paytable)
    page = read_page(args.page)
    certificate = certify_page(
        page, paytable, words=page_words(paytable), rounding=args.rounding, section=args.section
    )
    if args.claims_out is not None:
        reference = args.paytable
        if is_path(args.paytable):
            folder = os.path.dirname(os.path.abspath(args.claims_out))
            reference = os.path.relpath(os.path.abspath(args.paytable), folder)
            reference = reference.replace(os.sep, "/")
            if not reference.endswith(".toml") and "/" not in reference:
                reference = f"./{reference}"
        text = claims_toml(certificate, reference, Path(args.page).name)
        try:
            write_atomically(args.claims_out, content_writer(text), held=True)
        except OSError as exc:
            raise output_error("--claims-out", args.claims_out, exc) from None
    document = certificate_document(certificate, args)
    content = write_document(document, args.format, **layout(args))
    return deliver_report(content, args.report_out), certificate.status


def certificate_document(certificate: Any, args: argparse.Namespace) -> Any:
    """The certificate as a document: its header (page, paytable, digests, tool, rule),
    a line per figure (HTML: a table), the summary and what the page leaves out; its
    JSON the ``baccarat-odds/certify`` contract."""
    from analyzer.analysis.certify import (
        ROUNDING_RULES,
        figure_records,
        omission_text,
        result_label,
    )
    from analyzer.reports.document import Column, Document, Paragraph, table
    from analyzer.version import package_version

    page, paytable = certificate.page, certificate.paytable
    counts = certificate.counts()
    marks = "a decimal comma" if certificate.decimal_mark == "," else "a decimal point"
    odds = "stake first (1:8 is 8 to 1)" if certificate.stake_first else "as odds to one (8:1)"
    header = [
        f"page: {page.source} ({page.kind}, {page.size:,} bytes, sha256 {page.sha256})",
        f"paytable: {paytable.source}, {paytable.name!r} (sha256 {paytable.sha256 or 'none'})",
        f"tool: baccarat-odds {package_version()}",
        f"rounding: {certificate.rounding}: {ROUNDING_RULES[certificate.rounding]}",
        f"the page writes {marks} and its odds {odds}",
    ]
    if certificate.section is not None:
        header.append(f"section read: {certificate.section!r}")
    if certificate.too_long:
        header.append(
            f"{certificate.too_long} number(s) of more than 30 digits were not read as figures"
        )
    rows = certificate.figures
    summary = (
        f"{len(rows)} figure{'s' if len(rows) != 1 else ''}: {counts['PASS']} passed, "
        f"{counts['FAIL']} failed"
    )
    last = sum(1 for row in rows if row["result"] == "FAIL" and row["last_digit"])
    if last:
        summary += f" ({last} in the last printed digit only)"
    for result in ("UNCHECKED", "NOT STATEABLE", "UNMATCHED", "HIDDEN"):
        if counts[result]:
            summary += f", {counts[result]} {result.lower()}"
    omitted = [omission_text(item) for item in certificate.omitted]
    left_out = (
        "Not on the page: " + "; ".join(omitted) + "."
        if omitted
        else "Every bet of the paytable is on the page."
    )
    title = f"Certificate of {Path(page.source).name} against {paytable.source}"
    blocks: list[Any] = [Paragraph("\n".join(header), prose=True)]
    if args.format == "html":
        columns = [
            Column("Figure", "count"),
            Column("Result"),
            Column("Where"),
            Column("Printed"),
            Column("Reading"),
            Column("Exact, printed so"),
            Column("Snippet"),
            Column("Note"),
        ]
        cells = [
            [
                row["figure"],
                result_label(row),
                row["where"],
                row["printed"],
                row["reading"],
                row["computed"] or "-",
                row["snippet"],
                row["note"],
            ]
            for row in rows
        ]
        # A page reads its verdict first, then the figures.
        blocks += [Paragraph(summary, prose=True), Paragraph(left_out, prose=True)]
        blocks.append(table(columns, cells, audience="people"))
    else:
        blocks.append(Paragraph("\n".join(_line(row) for row in rows) or "No figure found."))
        blocks += [Paragraph(summary, prose=True), Paragraph(left_out, prose=True)]
    data = _certify_data(certificate, args, figure_records(certificate))
    return Document(title if args.format == "html" else None, tuple(blocks), data)


def _line(row: dict[str, Any]) -> str:
    """One figure on one line: its verdict, where it is, what it was read as, the figure
    as printed, and the exact value printed the same way."""
    result = row["result"]
    head = f"{_verdict(row)} figure {row['figure']} [{row['where']}]: {row['reading']}: "
    head += f"printed {row['printed']!r}"
    if result in ("UNMATCHED", "HIDDEN"):
        return f'{head}: {row["note"]}: "{row["snippet"]}"'
    claim = f" (claim {row['claim']})" if row["claim"] is not None else ""
    computed = row["computed"]
    exact = row["exact"]
    value = ""
    if computed and computed != "-":
        fact = row["quantity"] in ("payout", "max_round", "decks")
        value = f", {'paytable' if fact else 'exact'} {computed}"
        if exact and exact != computed.replace(",", ""):
            shown = exact if len(exact) <= 80 else exact[:77] + "..."
            value += f" ({shown})"
    note = f"; {row['note']}" if row["note"] else ""
    return f"{head}{claim}{value}{note}"


def _verdict(row: dict[str, Any]) -> str:
    from analyzer.analysis.certify import result_label

    return result_label(row)


def _certify_data(certificate: Any, args: argparse.Namespace, rows: list[dict]) -> dict:
    """The certify contract: the envelope (the paytable, its full shoe), a row per figure,
    then the page (its digest), the rule of rounding, how the page writes its figures,
    the summary, what it leaves out and the exit status."""
    from analyzer.analysis.certify import ROUNDING_RULES
    from analyzer.game.shoe import Shoe
    from analyzer.reports.contract import envelope, shoe_record

    paytable, page = certificate.paytable, certificate.page
    counts = certificate.counts()
    return envelope(
        "certify",
        paytable=paytable,
        shoe=shoe_record(Shoe.standard(paytable.decks)),
        options={
            "page": args.page,
            "rounding": certificate.rounding,
            "section": args.section,
            "claims_out": args.claims_out,
        },
        rows=rows,
        page={
            "source": page.source,
            "format": page.kind,
            "bytes": page.size,
            "sha256": page.sha256,
        },
        rounding=ROUNDING_RULES[certificate.rounding],
        decimal_mark=certificate.decimal_mark,
        stake_first=certificate.stake_first,
        section=certificate.section,
        summary={
            "figures": len(rows),
            **{k.lower().replace(" ", "_"): v for k, v in counts.items()},
        },
        omitted=[dict(item) for item in certificate.omitted],
        status=certificate.status,
    )
