"""A help page certified from its text: what ``baccarat-odds certify`` does, for a notebook.

:func:`certify` reads a page (HTML, Markdown, plain text or a PDF's text), finds every
figure it prints about the game, ties each to a bet of the paytable and checks it with
``verify`` at the digits the page printed; the :class:`Certification` it returns keeps
the certificate (a row per figure, what the page leaves out) and writes the claims file
the command's ``--claims-out`` writes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from analyzer.analysis.certify import (
    COLUMNS,
    Certificate,
    certify_page,
    claims_toml,
    omission_text,
    result_label,
)
from analyzer.analysis.page import read_page
from analyzer.api.results import TableResult
from analyzer.errors import AnalyzerError
from analyzer.paytables.library import as_paytable
from analyzer.paytables.model import Paytable
from analyzer.schema import argument

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Certification", "certify"]

#: The ways a page may have cut its figures' digits.
ROUNDINGS = ("round", "truncate")


@dataclass(frozen=True, eq=False, repr=False)
class Certification(TableResult):
    """A help page's figures, each found, tied to a bet and checked: what ``baccarat-odds
    certify`` prints.

    Attributes
    ----------
    certificate
        The whole certificate (``analyzer.analysis.certify.Certificate``): the page (its
        digest), the paytable, a row per figure, the claims inferred and what the page
        leaves out.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from analyzer import certify
    >>> page = pathlib.Path(tempfile.mkdtemp()) / "help.md"
    >>> _ = page.write_text("The Tie pays 8 to 1.\\n", encoding="utf-8")
    >>> certify(page, "seed-game")
    <Certification of help.md against seed-game: 1 passed, 0 failed>
    """

    certificate: Certificate

    def to_frame(self) -> pd.DataFrame:
        """A row per figure the page prints, indexed by its number (1 for the page's
        first): ``verdict`` (PASS, FAIL, FAIL (last digit), UNCHECKED, NOT STATEABLE,
        UNMATCHED or HIDDEN), then the columns of ``certify --format json``'s figures
        (``printed``, ``value``, ``reading``, ``where``, ``snippet``, ``claim``,
        ``quantity``, ``bet``, ``mode``, ``computed``, ``exact``, ``note`` ...).

        Returns
        -------
        pandas.DataFrame
            Indexed by ``figure``.
        """
        import pandas as pd

        rows = [
            {"verdict": result_label(row), **{key: row.get(key) for key in COLUMNS}}
            for row in self.certificate.figures
        ]
        frame = pd.DataFrame(rows, columns=["verdict", *COLUMNS], dtype=object)
        return frame.set_index("figure")

    @property
    def status(self) -> int:
        """The command's exit status: 1 when a figure fails, else 0."""
        return self.certificate.status

    @property
    def passed(self) -> bool:
        """Did no figure fail (as ``certify`` exits 0)?"""
        return self.status == 0

    @property
    def failures(self) -> pd.DataFrame:
        """The rows of :meth:`to_frame` whose figure failed."""
        frame = self.to_frame()
        return frame[frame["result"] == "FAIL"]

    @property
    def omitted(self) -> list[str]:
        """What the paytable has that the page leaves out, in words."""
        return [omission_text(item) for item in self.certificate.omitted]

    def claims_toml(self, paytable: str | None = None) -> str:
        """The claims file the page's figures state, for ``verify``: each claim with the
        page's snippet and place as a comment (what ``certify --claims-out`` writes).

        Parameters
        ----------
        paytable : str or None
            What the file names as its paytable: a shipped name, or the paytable file's
            path from the claims file's folder (default: the paytable as it was given).

        Returns
        -------
        str
            The claims file's text (TOML).
        """
        if paytable is not None:
            argument(paytable, str, "paytable", " (a shipped name or a path)")
        shown = paytable or self.certificate.paytable.source
        return claims_toml(self.certificate, shown, Path(self.certificate.page.source).name)

    def __repr__(self) -> str:
        counts = self.certificate.counts()
        parts = [f"{counts['PASS']} passed", f"{counts['FAIL']} failed"]
        for result in ("UNCHECKED", "NOT STATEABLE", "UNMATCHED", "HIDDEN"):
            if counts[result]:
                parts.append(f"{counts[result]} {result.lower()}")
        page = Path(self.certificate.page.source).name
        return (
            f"<Certification of {page} against {self.certificate.paytable.source}: "
            f"{', '.join(parts)}>"
        )


def certify(
    page: str | os.PathLike[str],
    paytable: Paytable | str | os.PathLike[str],
    *,
    rounding: str = "round",
    section: str | None = None,
) -> Certification:
    """Certify a game's help page from its text, as ``baccarat-odds certify`` does: every
    figure it prints (percentages, payouts, max rounds, deck counts) found, tied to a bet
    of the paytable by the names the paytable gives its bets in every language, and
    checked at the digits the page printed.

    Parameters
    ----------
    page : str or os.PathLike
        The help page: an HTML, Markdown, text or PDF file (its kind from its first bytes
        and name). Nothing in it is executed; a page over 2 MiB (a PDF over 16 MiB) is
        refused unread.
    paytable : Paytable or str or os.PathLike
        The paytable the page must agree with: a Paytable, a shipped name or a ``.toml``
        file.
    rounding : {"round", "truncate"}
        How the page cut its figures' digits: half away from zero, or toward zero.
    section : str or None
        Read only the section under the heading that holds this text (default: on a page
        of several top-level sections, the one whose heading names the paytable; else the
        whole page).

    Returns
    -------
    Certification
        A row per figure (:meth:`Certification.to_frame`), :attr:`Certification.passed`,
        :attr:`Certification.failures`, what the page leaves out
        (:attr:`Certification.omitted`) and the claims it states
        (:meth:`Certification.claims_toml`).

    Raises
    ------
    AnalyzerError
        A page that cannot be read (missing, too large, not UTF-8, nested or tagged beyond
        the limits, a PDF without text), an unknown paytable, a rounding other than round
        or truncate, a section no heading names (one line).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from analyzer import certify
    >>> page = pathlib.Path(tempfile.mkdtemp()) / "help.md"
    >>> _ = page.write_text(
    ...     "The Tie pays 8 to 1; its house edge is 14,36 %.\\n\\nPlayer Pair pays 12:1.\\n",
    ...     encoding="utf-8",
    ... )
    >>> certified = certify(page, "seed-game")
    >>> certified
    <Certification of help.md against seed-game: 2 passed, 1 failed>
    >>> certified.failures[["printed", "bet", "computed"]].values.tolist()
    [['12:1', 'player_pair', '11:1']]
    >>> certified.to_frame().loc[2, ["verdict", "value", "quantity", "exact"]].tolist()
    ['PASS', '14.36%', 'house_edge', '103841353768/723147898655']
    """
    from analyzer.reports.i18n import page_words

    argument(page, (str, PurePath), "page", " (a file)")
    if rounding not in ROUNDINGS:
        raise AnalyzerError(f"rounding: {rounding!r} is not one of {', '.join(ROUNDINGS)}")
    if section is not None:
        argument(section, str, "section", " (a heading's text)")
    table = as_paytable(paytable)
    read = read_page(os.fspath(page))
    certificate = certify_page(
        read, table, words=page_words(table), rounding=rounding, section=section
    )
    return Certification(certificate)
