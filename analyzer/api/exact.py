"""The exact tasks of the API: effects of removal, published claims checked, the game
between Player and Banker solved, and the help pages built.

Each function takes a paytable as a :class:`~analyzer.paytables.model.Paytable`, a
shipped name or a path, and returns a result that keeps the exact figures and gives
the same ones the command line prints (``eor``, ``verify``, ``solve``, ``docs --site``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from analyzer.analysis.eor import LinearCount, with_linear_counts
from analyzer.analysis.eor import removal_effects as effects_by_removal
from analyzer.analysis.exact import analyze
from analyzer.analysis.solve import GameSolution, solve_game
from analyzer.analysis.verify import load_claims, verify_claims
from analyzer.api.library import Removed, ShoeSpec, removed_cards, shoe_for
from analyzer.api.results import TableResult
from analyzer.errors import AnalyzerError
from analyzer.files import check_replaceable_folder, replace_tree_atomically
from analyzer.game.cards import RANKS
from analyzer.game.rules import RULE_SET_NAMES, DrawingRules, named_rules
from analyzer.game.shoe import Decks, Shoe
from analyzer.paytables.claims import Claim
from analyzer.paytables.library import (
    as_paytable,
    is_path,
    library_names,
)
from analyzer.paytables.model import RESERVED_MODES, Paytable
from analyzer.schema import argument, exact_number, sequence_of

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from analyzer.reports.site_config import SiteConfig

__all__ = [
    "RemovalEffects",
    "Verification",
    "game_rules",
    "help_pages",
    "removal_effects",
    "solve",
    "verify",
]

#: The paytable of the examples and the default of the functions that take one.
SEED_GAME = "seed-game"
#: The rule set solved when no game is named, and the decks of a rule set named alone.
DEFAULT_GAME = "chemin-de-fer"
DEFAULT_DECKS = 8


# -- Effects of removal ----------------------------------------------------------------------


@dataclass(frozen=True, eq=False, repr=False)
class RemovalEffects(TableResult):
    """The exact change in each bet's expected value when one card leaves the shoe, and
    the linear count those changes imply: what ``baccarat-odds eor`` prints.

    Attributes
    ----------
    paytable : Paytable
        The paytable analysed.
    shoe : Shoe
        The shoe the cards are removed from.
    modes : tuple of str
        The betting modes analysed.
    by_rank : pandas.DataFrame
        A row per (bet, mode, rank): ``bet``, ``mode``, ``name``, ``rank``, ``delta_ev``
        (float), ``delta_ev_exact`` (a Fraction, per unit staked), ``cards`` (of that rank
        in the shoe), ``tag`` (the rank's tag in the bet's linear count) and
        ``betting_correlation`` (the count's).
    by_card : pandas.DataFrame or None
        With ``by_card=True``, or for bets on suits: a row per (bet, mode, card) with
        ``card`` beside ``rank`` and the same figures; else None.
    linear_counts : dict
        Each (bet, mode)'s :class:`~analyzer.analysis.eor.LinearCount`.
    every_card : bool
        Whether each card (rank and suit) was asked for, not each rank.

    Examples
    --------
    >>> from analyzer import removal_effects
    >>> effects = removal_effects("ez-baccarat", decks=1, bets=["tie"])
    >>> effects
    <RemovalEffects of 'EZ Baccarat' on 1 deck (52 cards): 1 bet, modes ez, by ranks>
    >>> effects.counts_frame().loc[("tie", "ez"), ["A", "9", "K"]].tolist()
    [0, 1, 2]
    """

    paytable: Paytable
    shoe: Shoe
    modes: tuple[str, ...]
    by_rank: pd.DataFrame
    by_card: pd.DataFrame | None
    linear_counts: dict[tuple[str, str], LinearCount]
    every_card: bool = False

    def to_frame(self, wide: bool = False) -> pd.DataFrame:
        """The effects as a table.

        Parameters
        ----------
        wide : bool
            False (default): a row per (bet, mode, rank), or per card where each card was
            asked for: the rows ``eor --format json`` writes (with ``cards`` kept). True:
            the layout ``eor`` prints, a row per (bet, mode) and a column per rank (per
            card where each card was asked for), cells the exact change (Fractions).

        Returns
        -------
        pandas.DataFrame
            The table; its exact column is ``delta_ev_exact``.
        """
        frame = self.by_card if self.every_card and self.by_card is not None else self.by_rank
        if not wide:
            return frame.reset_index(drop=True)
        column = "card" if self.every_card else "rank"
        table = frame.pivot(index=["bet", "mode"], columns=column, values="delta_ev_exact")
        # Rows and columns as the analysis orders them (pivot sorts them).
        rows = list(dict.fromkeys(zip(frame["bet"], frame["mode"], strict=True)))
        return table.reindex(index=rows, columns=list(dict.fromkeys(frame[column])))

    def counts_frame(self) -> pd.DataFrame:
        """The linear counts: a row per (bet, mode), a column per rank (its tag) and the
        count's ``betting_correlation``, as ``eor`` prints them under "Linear counts".

        Returns
        -------
        pandas.DataFrame
            Indexed by (bet, mode).
        """
        import pandas as pd

        rows = [
            {
                "bet": bet,
                "mode": mode,
                **count.tags,
                "betting_correlation": count.betting_correlation,
            }
            for (bet, mode), count in self.linear_counts.items()
        ]
        columns = ["bet", "mode", *RANKS, "betting_correlation"]
        return pd.DataFrame(rows, columns=columns).set_index(["bet", "mode"])

    def plot(self, lang: str = "en") -> Figure:
        """Bar charts of the effects, a panel per bet (per mode where they differ), as
        ``eor --plot`` draws them: a :class:`matplotlib.figure.Figure`, made without pyplot
        (no global state, no backend chosen: a notebook shows it, ``savefig`` writes it).

        Parameters
        ----------
        lang : str
            The language of titles and bet names: ``en``, ``tl`` or ``ms``.

        Returns
        -------
        matplotlib.figure.Figure
            The chart.

        Raises
        ------
        AnalyzerError
            More bets than one chart draws (ask for fewer with ``bets``), or an unknown
            language.
        """
        from analyzer.reports.i18n import LANGUAGES
        from analyzer.reports.plots import effects_figure
        from analyzer.reports.tables import effects_shown_once

        if lang not in LANGUAGES:
            raise AnalyzerError(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
        shown = effects_shown_once(self.by_rank, self.modes)
        names = {
            bet: self.paytable.bet(bet, mode).display_name(lang)
            for bet, mode in zip(self.by_rank["bet"], self.by_rank["mode"], strict=True)
        }
        return effects_figure(shown, lang=lang, names=names)

    def __repr__(self) -> str:
        bets = len(dict.fromkeys(self.by_rank["bet"]))
        removed = "cards" if self.every_card else "ranks"
        return (
            f"<RemovalEffects of {self.paytable.name!r} on {self.shoe.describe()}: "
            f"{bets} bet{'s' if bets != 1 else ''}, modes {', '.join(self.modes)}, "
            f"by {removed}>"
        )


def removal_effects(
    paytable: Paytable | str | os.PathLike[str] = SEED_GAME,
    *,
    mode: str | None = None,
    decks: Decks | None = None,
    bets: Sequence[str] | None = None,
    remove: Removed = None,
    shoe: ShoeSpec = None,
    by_card: bool = False,
) -> RemovalEffects:
    """The exact effect on each bet's expected value of removing one card of each rank
    (or, ``by_card``, each card) from the shoe, and the linear count it implies: the
    figures of ``baccarat-odds eor``. A paytable of another game of the family (Dragon
    Tiger, Three Card Baccarat) is analysed by its deal walk, in the same tables.

    Parameters
    ----------
    paytable : Paytable or str or os.PathLike
        A paytable, a shipped paytable's name (see :func:`list_paytables`) or a ``.toml``
        file (default: ``seed-game``).
    mode : str or None
        One betting mode; None, ``"both"`` or ``"all"`` for every mode (default).
    decks : int or None
        Full decks of the shoe (default: the paytable's); not with ``shoe``.
    bets : list of str or None
        The bet ids (default: every bet). A bet on the cards takes a while: ask for few.
    remove : str or list of str or list of Card or None
        Cards already dealt out of the shoe (``"5H 5H KS"``).
    shoe : Shoe or str or os.PathLike or None
        The shoe, or a shoe file; not with ``decks``.
    by_card : bool
        The effect of each card (rank and suit) rather than each rank.

    Returns
    -------
    RemovalEffects
        The exact effects, as a table (:meth:`RemovalEffects.to_frame`) and a chart
        (:meth:`RemovalEffects.plot`), and the linear counts.

    Raises
    ------
    AnalyzerError
        An unknown paytable, mode or bet, a bad shoe, an infinite deck (a card dealt with
        replacement changes nothing), each card asked for where suits are unknown, or
        more work than the exact engines take (one line).

    Examples
    --------
    >>> from analyzer import removal_effects
    >>> effects = removal_effects("ez-baccarat", decks=1, bets=["tie"])
    >>> frame = effects.to_frame()
    >>> frame.loc[frame["rank"] == "9", "delta_ev_exact"].item()
    Fraction(...)
    >>> list(effects.to_frame(wide=True).columns)
    ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K']
    """
    from analyzer.reports.tables import with_names

    paytable = as_paytable(paytable)
    argument(mode, (str, type(None)), "mode", " (a mode name)")
    argument(by_card, bool, "by_card", " (True or False)")
    if bets is not None:
        bets = list(sequence_of(bets, str, "bets", "bet ids"))
    the_shoe = shoe_for(paytable, decks=decks, remove=remove, shoe=shoe)
    mode = None if mode in RESERVED_MODES else mode
    effects, cards = effects_by_removal(paytable, the_shoe, mode, bets, by_card)
    effects, counts = with_linear_counts(effects)
    modes = paytable.modes if mode is None else (mode,)
    return RemovalEffects(
        paytable,
        the_shoe,
        modes,
        with_names(effects, paytable),
        None if cards.empty else with_names(cards, paytable),
        counts,
        by_card,
    )


# -- Published claims ------------------------------------------------------------------------


#: The columns of :meth:`Verification.to_frame`, after its index (the claim's number).
VERIFICATION_COLUMNS = (
    "claim",
    "verdict",
    "claimed",
    "computed",
    "exact",
    "last_digit",
    "paytable",
    "shoe",
    "note",
)


@dataclass(frozen=True, eq=False, repr=False)
class Verification(TableResult):
    """Published figures checked against the exact values: what ``baccarat-odds verify``
    prints, a verdict per claim.

    Attributes
    ----------
    results : pandas.DataFrame
        A row per claim, the columns ``verify --format json`` writes (``claim`` the
        number, ``result`` PASS / FAIL / UNCHECKED, ``quantity``, ``bet``, ``mode``,
        ``claimed``, ``computed``, ``exact``, ``method``, ``note``, ``source`` ...).

    Examples
    --------
    >>> from analyzer import verify
    >>> checked = verify("seed-game")
    >>> checked
    <Verification of ... claims: ... passed, 0 failed>
    >>> checked.passed, len(checked.failures)
    (True, 0)
    """

    results: pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        """A row per claim, indexed by its number: ``claim`` (what it is about, in words),
        ``verdict`` (PASS, FAIL or UNCHECKED), ``claimed`` (the published figure),
        ``computed`` (the exact value printed the same way; a figure of a paytable's
        unknowns, none given: the set of them it allows), ``exact`` (as a fraction),
        ``last_digit`` (a FAIL by one in the last printed digit only), ``paytable``,
        ``shoe`` and ``note``.

        Returns
        -------
        pandas.DataFrame
            Indexed by ``number``.
        """
        results = self.results
        about = [
            f"{quantity} of {bet}" + ("" if mode == "-" else f" ({mode})")
            for quantity, bet, mode in zip(
                results["quantity"], results["bet"], results["mode"], strict=True
            )
        ]
        frame = results.assign(claim=about, verdict=results["result"], number=results["claim"])
        return frame.set_index("number")[list(VERIFICATION_COLUMNS)]

    @property
    def passed(self) -> bool:
        """Did every claim pass (as ``verify`` exits 0)? A claim not checked is not a pass."""
        return bool(self.results["result"].eq("PASS").all())

    @property
    def failures(self) -> pd.DataFrame:
        """The rows of :meth:`to_frame` whose verdict is FAIL."""
        frame = self.to_frame()
        return frame[frame["verdict"] == "FAIL"]

    def __repr__(self) -> str:
        counts = self.results["result"].value_counts()
        parts = [
            f"{int(counts.get(verdict, 0))} {word}"
            for verdict, word in (("PASS", "passed"), ("FAIL", "failed"))
        ]
        unchecked = int(counts.get("UNCHECKED", 0))
        if unchecked:
            parts.append(f"{unchecked} not checked")
        claims = len(self.results)
        return f"<Verification of {claims} claim{'s' if claims != 1 else ''}: {', '.join(parts)}>"


def verify(
    claims: str | os.PathLike[str] | Sequence[Claim],
    *,
    paytable: Paytable | str | os.PathLike[str] | None = None,
    decks: Decks | None = None,
    remove: Removed = None,
    shoe: Shoe | str | os.PathLike[str] | None = None,
) -> Verification:
    """Check published figures (a claims file) against the exact values, each at the
    digits its source printed: the verdicts of ``baccarat-odds verify``.

    Parameters
    ----------
    claims : str or os.PathLike or list of Claim
        A shipped claims file's name (see :func:`list_claims`), a claims ``.toml`` file,
        or the claims themselves (:func:`~analyzer.paytables.claims.load_claims`).
    paytable : Paytable or str or os.PathLike or None
        Check every claim against this paytable instead of the one each claim names
        (a variant's figures against another's published ones).
    decks : int or "inf" or None
        Every claim on this many full decks; not with ``shoe``.
    remove : str or list of str or list of Card or None
        Cards out of every claim's shoe (``"5H 5H KS"``), on top of the claims' own.
    shoe : Shoe or str or os.PathLike or None
        Every claim on this shoe (or shoe file); not with ``decks``.

    Returns
    -------
    Verification
        A verdict per claim (:meth:`Verification.to_frame`), :attr:`Verification.passed`
        and :attr:`Verification.failures`.

    Raises
    ------
    AnalyzerError
        An unknown or invalid claims file, a claim about a bet or mode its paytable does
        not have, a bad paytable or shoe (one line, naming the claims file).

    Examples
    --------
    >>> from analyzer import verify
    >>> checked = verify("seed-game")
    >>> checked.passed
    True
    >>> checked.to_frame().loc[2, ["claim", "verdict", "claimed"]].tolist()
    ['payouts of banker (commission)', 'PASS', '0.95:1']
    """
    from analyzer.game.shoe import shoe_from_file
    from analyzer.runs.studies import CountingStudies

    named = isinstance(claims, (str, PurePath, os.PathLike))
    if named:
        where = os.fspath(claims)
        loaded = load_claims(where)
    else:
        where = None
        loaded = list(sequence_of(claims, Claim, "claims", "Claim objects", " (see load_claims)"))
    if shoe is not None and decks is not None:
        raise AnalyzerError("give decks or shoe, not both")
    if shoe is not None and not isinstance(shoe, Shoe):
        argument(shoe, (str, PurePath), "shoe", " (a Shoe or a shoe file)")
        shoe = shoe_from_file(os.fspath(shoe))
    removed = removed_cards(remove)
    try:
        results = verify_claims(
            loaded,
            shoe,
            decks=decks,
            remove=removed,
            simulator=CountingStudies(),
            paytable=paytable,
        )
    except AnalyzerError as exc:
        if where is None:
            raise
        raise AnalyzerError(f"{where}: {exc}") from None
    return Verification(results)


# -- The game of Player against Banker -------------------------------------------------------


def game_rules(
    game: DrawingRules | Paytable | str | os.PathLike[str],
) -> tuple[DrawingRules, Decks, str]:
    """The drawing rules, default decks and a name for what ``game`` names, as ``solve
    --paytable`` reads it: a shipped paytable's name or a paytable file (its rules and
    decks), else a rule set's name (its rules on 8 decks); a Paytable or DrawingRules as
    it is.

    Parameters
    ----------
    game : DrawingRules or Paytable or str or os.PathLike
        What to solve.

    Returns
    -------
    tuple
        (rules, default decks, the words naming it in ``solve``'s first line).

    Raises
    ------
    AnalyzerError
        An unknown name, an unreadable file, or a value of another type (one line).

    Examples
    --------
    >>> from analyzer.api.exact import game_rules
    >>> rules, decks, what = game_rules("bahamian")
    >>> rules.name, decks, what
    ('bahamian', 8, 'rule set bahamian')
    """
    if isinstance(game, DrawingRules):
        return game, DEFAULT_DECKS, f"rules {game.name}"
    if isinstance(game, str) and not is_path(game) and game not in library_names():
        if game in RULE_SET_NAMES:
            return named_rules(game), DEFAULT_DECKS, f"rule set {game}"
        raise AnalyzerError(
            f"unknown paytable or rule set {game[:40]!r}: give a .toml file, a shipped "
            f"paytable ({', '.join(library_names())}) or a rule set "
            f"({', '.join(RULE_SET_NAMES)})"
        )
    paytable = as_paytable(game)
    paytable.require_punto_banco("solve (the game of Player against Banker)")
    # (a [decision] raises bets, the hands drawing by the rules: the game is the same)
    note = ""
    if paytable.punto_banco_decision is not None:
        note = "; its [decision] raises bets and draws no card: see baccarat-odds strategy"
    return (
        paytable.rules,
        paytable.decks,
        f"paytable {paytable.name} (rules {paytable.rules.name}{note})",
    )


def solve(
    game: DrawingRules | Paytable | str | os.PathLike[str] = DEFAULT_GAME,
    *,
    decks: Decks | Shoe | None = None,
) -> GameSolution:
    """Solve the two-person zero-sum game between Player and Banker exactly (no
    commission, ties push): the game's value and each side's optimal strategy, as
    ``baccarat-odds solve`` prints them.

    Parameters
    ----------
    game : DrawingRules or Paytable or str or os.PathLike
        A shipped paytable's name or a paytable file (its drawing rules and decks), a
        rule set's name (see :func:`list_rule_sets`), a Paytable or DrawingRules
        (default: ``chemin-de-fer``). The paytable's bets play no part.
    decks : int or "inf" or Shoe or None
        Full decks, ``"inf"`` for the infinite deck, or a shoe (default: the
        paytable's decks; 8 for a rule set or rules).

    Returns
    -------
    GameSolution
        The value to the Banker (``value``, a Fraction) and the probability of drawing
        in every decision cell (:meth:`GameSolution.to_frame`).

    Raises
    ------
    AnalyzerError
        An unknown paytable or rule set, or a bad number of decks (one line).

    Examples
    --------
    >>> from analyzer import solve
    >>> solution = solve("chemin-de-fer", decks="inf")
    >>> solution.value
    Fraction(679568, 53094899)
    >>> solution.play(solution.mixed[0])
    '9/11'
    """
    rules, default_decks, _ = game_rules(game)
    return solve_game(rules, default_decks if decks is None else decks)


# -- Help pages ------------------------------------------------------------------------------


def help_pages(
    paytable: Paytable
    | str
    | os.PathLike[str]
    | Sequence[Paytable | str | os.PathLike[str]]
    | None = None,
    out: str | os.PathLike[str] = "site",
    *,
    decks: Decks | None = None,
    eor: bool = False,
    force: bool = False,
    config: SiteConfig | str | os.PathLike[str] | None = None,
    unknowns: Mapping[str, Fraction | int | str] | None = None,
) -> list[Path]:
    """Build the help pages of paytables as a static site, as ``baccarat-odds docs
    --site`` does: ``index.html``, ``style.css`` and, per paytable, a page in each
    language (``SLUG/LANG.html``) with its rules, payouts, max rounds and exact odds.

    A file of alternative pay tables (``[[alternative]]``) gives a game per pay table
    (``SLUG-1``, ``SLUG-2``, ...). A paytable whose multipliers have unknowns gets pages at
    the values in ``unknowns``; without any it is skipped, and the index lists it with why.

    Parameters
    ----------
    paytable : Paytable or str or os.PathLike or list of them or None
        The paytables: each a Paytable, a shipped name or a ``.toml`` file (default:
        every shipped paytable).
    out : str or os.PathLike
        The site's folder: missing or empty (or ``force``), not a symbolic link.
    decks : int or "inf" or None
        Full decks of every page's shoe (default: each paytable's).
    eor : bool
        Add each paytable's effects of removal as a chart, on analysts' pages of their
        own (``analyst/SLUG/LANG.html``, linked from the index), never on a help page
        (minutes for bets on cards).
    force : bool
        Replace the folder whole even if it is not empty.
    config : SiteConfig or str or os.PathLike or None
        The site's configuration (the operator's name, logo, stylesheet and footer, the
        decimals, the languages): a
        :class:`~analyzer.reports.site_config.SiteConfig` or a ``SITE.toml`` file
        (default: none, 2 decimals, every language).
    unknowns : mapping of str to Fraction or int or str, or None
        Values of the unknowns of the paytables' multipliers, by name (``{"p": "7/113"}``).

    Returns
    -------
    list of pathlib.Path
        The files written, sorted.

    Raises
    ------
    AnalyzerError
        An unknown paytable, two paytables sharing a page folder, a folder not empty
        without ``force``, too many bets to chart with ``eor``, a bad configuration or
        value of an unknown, or a folder that cannot be written (one line).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from analyzer import help_pages
    >>> folder = pathlib.Path(tempfile.mkdtemp()) / "site"
    >>> written = help_pages("ez-baccarat", folder)
    >>> [path.relative_to(folder).as_posix() for path in written]
    ['ez-baccarat/en.html', 'ez-baccarat/ms.html', 'ez-baccarat/tl.html', 'index.html', 'style.css']
    """
    from analyzer.files import output_error
    from analyzer.reports.site import (
        SitePaytable,
        check_charts,
        page_folders,
        render_site,
        site_games,
    )
    from analyzer.reports.site_config import SiteConfig, read_site_config

    argument(eor, bool, "eor", " (True or False)")
    argument(force, bool, "force", " (True or False)")
    argument(out, (str, PurePath), "out", " (a folder)")
    if config is not None and not isinstance(config, SiteConfig):
        argument(config, (str, PurePath), "config", " (a SiteConfig or a SITE.toml file)")
        config = read_site_config(os.fspath(config))
    values = None
    if unknowns is not None:
        if not isinstance(unknowns, Mapping):
            raise AnalyzerError('unknowns: give a mapping of names to values, e.g. {"p": "7/113"}')
        values = {
            str(name): exact_number(
                str(value) if isinstance(value, Fraction) else value, "unknowns", str(name)[:20]
            )
            for name, value in unknowns.items()
        }
    if paytable is None:
        specs: list = list(library_names())
    elif isinstance(paytable, (Paytable, str, PurePath, os.PathLike)):
        specs = [paytable]
    else:
        specs = list(sequence_of(paytable, object, "paytable", "paytables"))
    paytables = [as_paytable(spec) for spec in specs]  # every file read first
    named = [
        (_shown(spec), _page_name(spec, table))
        for spec, table in zip(specs, paytables, strict=True)
    ]
    folders = page_folders(named, "paytable")
    games, skipped = site_games(
        list(zip(folders, paytables, strict=True)), values, option="unknowns"
    )
    if eor:
        shown = {slug: repr(table.name) for slug, table in zip(folders, paytables, strict=True)}
        check_charts(games, "eor", shown)
    try:
        site = check_replaceable_folder(os.fspath(out), "out", force)
    except AnalyzerError as exc:  # (said for the command line's option)
        raise AnalyzerError(str(exc).replace("--force", "force=True")) from None
    entries = []
    for game in games:
        table = game.paytable
        the_shoe = Shoe.standard(table.decks if decks is None else decks)
        analysis = analyze(paytable=table, shoe=the_shoe)
        effects = effects_by_removal(table, the_shoe)[0] if eor else None
        entries.append(SitePaytable(game.slug, analysis, effects, game.unknowns))
    files = render_site(entries, config, skipped)  # every page rendered before any write
    try:
        replace_tree_atomically(site, files, "out", force=force)
    except OSError as exc:
        raise output_error("out", site, exc) from None
    return sorted(Path(site) / name for name in files)


def _page_name(spec: object, paytable: Paytable) -> str:
    """What a paytable's page folder is named after: a shipped name, a file's stem, or a
    Paytable's own name."""
    if isinstance(spec, Paytable):
        return paytable.name
    text = os.fspath(spec)  # type: ignore[arg-type]
    return Path(text).stem if is_path(text) else text


def _shown(spec: object) -> str:
    return repr(spec.name) if isinstance(spec, Paytable) else os.fspath(spec)  # type: ignore[arg-type]
