"""Help pages: a static site of every paytable's rules, payouts and exact odds, in every
language of the help pages (``docs --site``).

Pages are Jinja2 templates (``site/page.html``, ``site/index.html``) filled from the
exact analysis, with autoescaping on: every text from a paytable file is escaped. The
third-card table is laid out from :data:`analyzer.game.rules.THIRD_CARD` itself, and the
sentences come from ``site/sentences.toml`` (see :func:`analyzer.reports.i18n.sentence`).
One stylesheet is shipped beside the templates; nothing is fetched from the network and no
page runs a script. A site configuration (:mod:`analyzer.reports.site_config`) adds the
operator's name, logo, stylesheet and footer, and sets the decimals of every figure.

The player's pages never show effects of removal: those are analysts' pages of their own
(``analyst/SLUG/LANG.html``), linked from the index under "For analysts".
"""

from __future__ import annotations

import hashlib
import io
import re
import struct
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import jinja2
import pandas as pd

from analyzer.analysis.exact import Analysis
from analyzer.errors import AnalyzerError
from analyzer.files import shipped_folder
from analyzer.game.cards import N_VALUES
from analyzer.game.games import Game, Hand
from analyzer.game.rules import CHOOSE, DRAW, PLAYER_STOOD, STAND, STANDARD, Cell, DrawingRules
from analyzer.game.shoe import INFINITE, Decks
from analyzer.paytables.model import Bet, Paytable, in_language
from analyzer.paytables.printed import printed_value
from analyzer.reports.i18n import LANGUAGE_NAMES, sentence, word
from analyzer.reports.plots import effects_figure
from analyzer.reports.site_config import STYLESHEET, SiteConfig
from analyzer.reports.tables import (
    effects_shown_once,
    fee_text,
    fraction_text,
    multipliers_text,
    pays_text,
    shown_once,
    unavailable_lines,
)
from analyzer.version import package_version

_SITE = shipped_folder("analyzer.reports", "site")
#: The folder of the analysts' pages (effects of removal), beside the paytables' folders.
ANALYST = "analyst"
#: Page folder names: what a shipped paytable's name or a file's stem becomes.
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class SitePaytable:
    """One paytable of the site: its folder name, its exact analysis on a full shoe,
    (for the analysts' chart) its effects of removal, and the values its multipliers'
    unknowns were given (the page says so)."""

    slug: str
    analysis: Analysis
    effects: pd.DataFrame | None = None
    unknowns: Mapping[str, Fraction] = field(default_factory=dict)


@dataclass(frozen=True)
class SiteGame:
    """A game to give pages: its folder name, its paytable (with values for its unknowns,
    if it has any), and those values."""

    slug: str
    paytable: Paytable
    unknowns: Mapping[str, Fraction] = field(default_factory=dict)


def page_folders(named: Sequence[tuple[str, str]], option: str) -> list[str]:
    """Each paytable's page folder, from ``(what the user gave, what the folder is named
    after)`` (a shipped name, a file's stem, a paytable's own name); a paytable given
    twice, or two whose folders would be the same, is one error naming ``option``."""
    folders: dict[str, str] = {}
    for shown, name in named:
        slug = page_slug(name)
        if slug in folders:
            if folders[slug] == shown:
                raise AnalyzerError(f"{option} {shown}: given twice")
            raise AnalyzerError(
                f"{option} {folders[slug]} and {shown} would share the page folder "
                f"{slug!r}: rename one"
            )
        folders[slug] = shown
    return list(folders)


def check_charts(games: Sequence[SiteGame], option: str, names: Mapping[str, str]) -> None:
    """Refuse, before any work, effects-of-removal charts (``option``) of a paytable of
    more bets than a chart shows (``names``: how each game's folder is shown)."""
    from analyzer.reports.plots import MAX_CHART_BETS

    for game in games:
        if len(game.paytable.bet_ids) > MAX_CHART_BETS:
            raise AnalyzerError(
                f"{option} charts at most {MAX_CHART_BETS} bets a paytable, and "
                f"{names.get(game.slug, game.slug)} has {len(game.paytable.bet_ids)}: "
                f"build its pages without {option}"
            )


def site_games(
    named: Sequence[tuple[str, Paytable]],
    unknowns: Mapping[str, Fraction] | None = None,
    option: str = "--unknowns",
) -> tuple[list[SiteGame], list[tuple[str, str]]]:
    """The games of a site, from paytables by folder name: each paytable is a game, but a
    file of alternative pay tables (``[[alternative]]``) is one game for each (folders
    ``NAME-1``, ``NAME-2``, ...); a paytable whose multipliers have unknowns takes their
    values from ``unknowns``, and without any is skipped. Returns the games and the
    skipped paytables, (folder name, why).

    Raises
    ------
    AnalyzerError
        A value for a name that no paytable has as an unknown, values for some but not
        all of a paytable's unknowns, or a value outside its range (``option`` names
        them).
    """
    given = dict(unknowns or {})
    known = {name for _, paytable in named for name, _, _ in paytable.unknowns}
    extra = sorted(set(given) - known)
    if extra:
        having = ", ".join(sorted(known)) or "none"
        raise AnalyzerError(
            f"{option}: {extra[0][:20]!r} is not an unknown of any of these paytables "
            f"(their unknowns: {having})"
        )
    games, skipped = [], []
    for slug, paytable in named:
        values: dict[str, Fraction] = {}
        if paytable.unknowns:
            names = [name for name, _, _ in paytable.unknowns]
            values = {name: given[name] for name in names if name in given}
            if not values:
                what = (
                    "its multipliers' distribution has"
                    if paytable.multipliers is not None
                    else "the chances of its decision's cards shown have"
                )
                skipped.append((slug, f"{what} unknowns (give {option})"))
                continue
            if len(values) < len(names):
                missing = ", ".join(name for name in names if name not in values)
                raise AnalyzerError(f"{option}: {slug} needs a value for {missing} too")
            try:
                paytable = paytable.with_unknowns(values)
            except AnalyzerError as exc:
                raise AnalyzerError(f"{option}: {slug}: {exc}") from None
        alternatives = paytable.games()
        for n, game in enumerate(alternatives, 1):
            games.append(SiteGame(slug if len(alternatives) == 1 else f"{slug}-{n}", game, values))
    return games, skipped


def page_slug(name: str) -> str:
    """A folder name for a paytable: lower-case ASCII letters, digits and ``-`` (accents
    dropped); a name with none of those gets one made from its digest, so that two such
    names never share a folder."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = _SLUG.sub("-", ascii_name.lower()).strip("-")[:64].strip("-")
    if slug:
        return slug
    return "paytable-" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FunctionLoader(lambda name: (_SITE / name).read_text(encoding="utf-8")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )


#: What the seed page's third-card table shows for no value: an en dash.
_NONE = "\N{EN DASH}"


def _values(values: Sequence[int]) -> str:
    """Point values as the seed page lists them: ``0, 1, 2``, or an en dash for none."""
    return ", ".join(map(str, values)) if values else _NONE


def _quoted(text: str) -> str:
    """Text in the curly quotes the seed pages put around mode names."""
    return f"\N{LEFT DOUBLE QUOTATION MARK}{text}\N{RIGHT DOUBLE QUOTATION MARK}"


def _alternatives(values: Sequence[int], lang: str) -> str:
    """``8 or 9`` in ``lang``."""
    items = [str(v) for v in values]
    return (
        items[0]
        if len(items) == 1
        else f"{', '.join(items[:-1])} {sentence('or', lang)} {items[-1]}"
    )


def _multiplier_lines(paytable: Paytable, lang: str) -> list[str]:
    """The multiplier rules and the fee, as the help page states them (none without)."""
    lines = []
    if paytable.multipliers is not None:
        lines.append(multipliers_text(paytable.multipliers, lang))
    if paytable.fee:
        lines.append(fee_text(paytable.fee, lang))
    return [line[:1].upper() + line[1:] for line in lines]


def _multiplied_lines(analysis: Analysis, lang: str) -> list[str]:
    """Each multiplied bet, once, and whose cards its multiplier counts."""
    lines = []
    for r in analysis.results:
        if r.bet.multiplied:
            kind, game = r.bet.multiply, analysis.paytable.game
            hand = None if game is None else next((h for h in game.hands if h.name == kind), None)
            if hand is not None:
                cards = sentence("multiply_hand", lang, hand=hand.label(lang))
            else:
                cards = sentence(f"multiply_{kind}", lang)
            key = "multiplied_bet_suits" if r.bet.multipliers.by_suits else "multiplied_bet"
            lines.append(sentence(key, lang, bet=r.bet.display_name(lang), cards=cards))
    return list(dict.fromkeys(lines))


def _game_text(game: Game | None, decks: Decks, lang: str) -> dict[str, object] | None:
    """The rules section of a game other than punto banco, said from its definition (its
    hands, how they are dealt, scored and compared); None for punto banco."""
    if game is None:
        return None
    first, second = game.hands

    def count(hand: Hand) -> str:
        if hand.cards == 1:
            return sentence("one_card", lang)
        return sentence("card_count", lang, count=hand.cards)

    decks_text = sentence(_DECK_COUNT.get(decks, "deck_count"), lang, count=decks)
    intro = sentence(
        "game_intro",
        lang,
        name=game.name,
        first=first.label(lang),
        second=second.label(lang),
        decks=decks_text,
    )
    if game.deal == "alternate" and first.cards == second.cards:
        deal = sentence("game_deal_alternate", lang, count=count(first), first=first.label(lang))
    else:
        deal = sentence(
            "game_deal_in_turn" if game.deal == "in turn" else "game_deal_alternate_unequal",
            lang,
            first=first.label(lang),
            second=second.label(lang),
            first_count=count(first),
            second_count=count(second),
        )
    if not game.draws:
        deal += " " + sentence("game_no_more", lang)
    if game.score == "rank":
        score = [sentence("game_score_rank_ace_high" if game.ace_high else "game_score_rank", lang)]
    else:
        score = [sentence("game_score_points", lang)]
        if game.score == "points and pictures":
            score.append(sentence("game_score_pictures", lang))
    for hand in game.hands:
        if hand.draws:
            totals = _alternatives(list(hand.draws), lang)
            score.append(sentence("game_hand_draws", lang, hand=hand.label(lang), totals=totals))
    if game.decision is not None:
        score.append(_decision_text(game, lang))
    tie = sentence("tie_word", lang) if game.tie == "tie" else game.tie
    score.append(sentence("game_winner", lang, tie=tie))
    return {"intro": intro, "deal": deal, "points": game.score != "rank", "score": score}


def _decision_text(game: Game, lang: str, bets: Sequence[Bet] = ()) -> str:
    """What the player sees and may choose, said from the decision (``bets``: those a
    punto banco decision is for, with their fee where they charge one)."""
    decision = game.decision
    labels = {hand.name: hand.label(lang) for hand in game.hands}
    seen = []
    for card in decision.sees:
        h, number = game.card_place(card)
        label = game.hands[h].label(lang)
        seen.append(sentence("game_card_of", lang, hand=label, number=number))
    stakes_only = all(action.draws is None for action in decision.actions)
    actions = []
    for action in decision.actions:
        name = action.label(lang)
        if action.folds:
            if action.forfeit == 1:
                actions.append(sentence("game_action_fold", lang, action=name))
            else:
                share = fraction_text(action.forfeit)
                actions.append(sentence("game_action_surrender", lang, action=name, share=share))
        elif action.draws is not None:
            actions.append(
                sentence(
                    "game_action_draws",
                    lang,
                    action=name,
                    hand=labels[action.draws],
                    stake=action.stake,
                )
            )
        elif action.stake != 1:
            actions.append(sentence("game_action_raise", lang, action=name, stake=action.stake))
        else:
            key = "game_action_keep" if stakes_only else "game_action_stand"
            actions.append(sentence(key, lang, action=name))
    if not decision.shown:
        return sentence("game_decision", lang, seen=", ".join(seen), actions="; ".join(actions))
    shown = "; ".join(
        sentence("game_shown_count", lang, count=count, chance=fraction_text(chance))
        for count, chance in decision.shown
        if chance
    )
    names = ", ".join(bet.display_name(lang) for bet in bets)
    text = sentence(
        "game_decision_shown",
        lang,
        seen=", ".join(seen),
        shown=shown,
        bets=names,
        actions="; ".join(actions),
    )
    fees = {bet.fee for bet in bets}
    if len(fees) == 1 and next(iter(fees)):
        fee = f"{float(100 * next(iter(fees))):g}%"
        text += " " + sentence("game_decision_fee", lang, fee=fee, bets=names)
    return text


def rules_facts(rules: DrawingRules = STANDARD) -> dict[str, object]:
    """What the rules section says, read from the rule set itself: the natural scores, the
    Player's drawing, standing and deciding scores, the Banker's drawing and deciding
    scores when the Player stood, and the Banker's table by its two-card score (scores
    with the same row joined, as on the seed page), with the third-card values on which
    it decides where it does."""
    others = [t for t in range(N_VALUES) if t not in rules.naturals]

    def where(actions: Sequence[str], action: str, over: Sequence[int]) -> list[int]:
        return [i for i in over if actions[i] == action]

    stood = [rules.banker[b][PLAYER_STOOD] for b in range(N_VALUES)]
    rows: list[dict[str, object]] = []
    for banker in others:
        cells = rules.banker[banker][:PLAYER_STOOD]
        row = {name: where(cells, action, range(N_VALUES)) for name, action in _ACTIONS}
        if rows and all(rows[-1][name] == row[name] for name, _ in _ACTIONS):
            rows[-1]["scores"].append(banker)
        else:
            rows.append({"scores": [banker], **row})
    return {
        "naturals": list(rules.naturals),
        "draw": where(rules.player, DRAW, others),
        "stand": where(rules.player, STAND, others),
        "choose": where(rules.player, CHOOSE, others),
        "banker_draw": where(stood, DRAW, others),
        "banker_choose": where(stood, CHOOSE, others),
        "chooses": any(row["chooses"] for row in rows),
        "third_card": [
            {
                "scores": _values(row["scores"]),
                "draws": _values(row["draws"]),
                "stands": _values(row["stands"]),
                "chooses": _values(row["chooses"]),
                "choose_values": row["chooses"],
                "choose_scores": row["scores"],
            }
            for row in rows
        ],
    }


#: The columns of the Banker's table: what it does on each third-card value.
_ACTIONS = (("draws", DRAW), ("stands", STAND), ("chooses", CHOOSE))


def _from_zero(values: list[int]) -> bool:
    """Do the scores run 0, 1, ..., k (so that "k or less" says them)?"""
    return bool(values) and values == list(range(len(values)))


def rules_lines(facts: dict, paytable: Paytable, lang: str) -> dict[str, list[str]]:
    """The sentences of the rules section in ``lang``: the Player's (items of a list),
    the Banker's when the Player stood, and the Banker's decisions after a Player's third
    card (below its table). A decision says how this page's figures play it."""
    played = paytable.strategy.probability

    def play(cell: Cell) -> str:
        p = played.get(cell)
        if p is None:
            return sentence("play_undecided", lang)
        if p in (0, 1):
            return sentence("play_draws" if p == 1 else "play_stands", lang)
        return sentence("play_mixed", lang, p=fraction_text(p))

    draw, stand = facts["draw"], facts["stand"]
    player = []
    if _from_zero(draw):
        player.append(sentence("player_draws", lang, draw=draw[-1]))
    elif draw:
        player.append(sentence("player_draws_on", lang, totals=_alternatives(draw, lang)))
    if stand:
        player.append(sentence("player_stands", lang, stand=_alternatives(stand, lang)))
    for total in facts["choose"]:
        player.append(
            sentence("player_chooses", lang, total=total, play=play(Cell("player", total)))
        )
    banker = []
    banker_draw = facts["banker_draw"]
    # The Player stands on its standing scores and on a decision cell it stood on.
    stood_on = sorted(stand + facts["choose"])
    stood = _alternatives(stood_on, lang) if stood_on else _NONE
    if _from_zero(banker_draw):
        banker.append(sentence("banker_player_stood", lang, stand=stood, draw=banker_draw[-1]))
    elif banker_draw:
        totals = _alternatives(banker_draw, lang)
        banker.append(sentence("banker_player_stood_on", lang, stand=stood, totals=totals))
    for total in facts["banker_choose"]:
        cell = Cell("banker", total, PLAYER_STOOD)
        banker.append(sentence("banker_chooses_stood", lang, total=total, play=play(cell)))
    after = []
    for row in facts["third_card"]:
        for total in row["choose_scores"]:
            for value in row["choose_values"]:
                cell = Cell("banker", total, value)
                after.append(
                    sentence(
                        "banker_chooses_after", lang, total=total, value=value, play=play(cell)
                    )
                )
    decision = []
    if paytable.punto_banco_decision is not None:
        decided = [bet for bet in paytable.bets if bet.id in paytable.decided]
        decision.append(_decision_text(paytable.decision_hands, lang, decided))
    return {"player": player, "banker": banker, "banker_after": after, "decision": decision}


def _payout_lines(bet: Bet, lang: str) -> list[dict[str, object]]:
    """The winning and pushing rules of a bet, as the payouts cell lists them."""
    # Every line but a whole loss (a partial loss, "lose 1/2", is what a player must know).
    shown = [rule for rule in bet.rules if rule.payout.net != -1 or rule.payout.multiplied]
    lines = []
    for rule in shown:
        label = in_language(rule.labels, lang)
        lines.append(
            {
                # Without words for it, a line of a bet that pays several ways shows its
                # condition, as written in the paytable.
                "label": label or (rule.condition.shown if len(shown) > 1 else None),
                "condition": label is None,
                "pays": rule.payout.text
                if rule.payout.pays
                else pays_text(rule.payout.text, lang)
                if rule.payout.net
                else word("Push", lang),
            }
        )
    return lines


def _bets_table(analysis: Analysis, lang: str) -> list[dict[str, object]]:
    """One row per bet, as the seed page's table: its name, description and max round;
    its payouts, per group of modes where they differ."""
    rows = []
    for bet_id in dict.fromkeys(r.bet.id for r in analysis.results):
        variants: dict[int, tuple[Bet, list[str]]] = {}
        for r in analysis.results:
            if r.bet.id == bet_id:
                variants.setdefault(id(r.bet), (r.bet, []))[1].append(r.mode)
        groups = list(variants.values())
        first, first_modes = groups[0]
        # Modes are named where the payouts differ by mode, or the bet is not in them all.
        several = len(groups) > 1 or len(first_modes) < len(analysis.modes)
        rows.append(
            {
                "id": bet_id,
                "name": first.display_name(lang),
                "description": in_language(first.descriptions, lang),
                "max_round": first.max_round,
                "variants": [
                    {
                        "mode_names": ", ".join(word(m, lang) for m in modes) if several else None,
                        "lines": _payout_lines(bet, lang),
                        "note": in_language(bet.notes, lang),
                    }
                    for bet, modes in groups
                ],
            }
        )
    return rows


def _figure_cell(name: str, value: Fraction, decimals: int) -> dict[str, str]:
    return {
        "field": name,
        "exact": fraction_text(value),
        "text": printed_value(value, decimals),
    }


def _odds_table(analysis: Analysis, lang: str, decimals: int) -> list[dict[str, object]]:
    return [
        {
            "bet": r.bet.id,
            "mode": mode,
            "name": r.bet.display_name(lang),
            "mode_name": word(mode, lang),
            "cells": [
                _figure_cell("house_edge", r.house_edge, decimals),
                _figure_cell("rtp", r.rtp, decimals),
                _figure_cell("hit_frequency", r.hit_frequency, decimals),
            ],
        }
        for r, mode in shown_once(analysis)
    ]


def _max_rtp(analysis: Analysis, decimals: int) -> dict[str, str] | None:
    """The best bet's RTP, exact and as the seed pages print it; None where some bet
    cannot be priced (the best might be that one)."""
    if not analysis.results or analysis.unavailable:
        return None
    return {
        "exact": fraction_text(analysis.max_rtp),
        "text": printed_value(analysis.max_rtp, decimals),
    }


def _rtp_line(analysis: Analysis, max_rtp: dict[str, str] | None, lang: str) -> dict | None:
    """The page's RTP sentence: a game's maximum RTP, as the seed pages state it; for side
    bets only (no main bet, see :data:`~analyzer.paytables.model.MAIN_BETS`) there is no
    game's RTP to claim, so the best bet's, named."""
    if max_rtp is None:
        return None
    best = analysis.best().bet
    if analysis.paytable.has_main_bet:
        text = sentence("max_rtp", lang, rtp=max_rtp["text"])
        return {"kind": "max-rtp", "bet": best.id, "text": text}
    text = sentence("best_rtp", lang, rtp=max_rtp["text"], bet=best.display_name(lang))
    return {"kind": "best-rtp", "bet": best.id, "text": text}


def _png(figure) -> tuple[bytes, tuple[int, int]]:
    """A figure as PNG bytes, and its size in pixels (read back from the PNG header)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    data = buffer.getvalue()
    width, height = struct.unpack(">II", data[16:24])
    return data, (width, height)


def _decks(analysis: Analysis) -> Decks:
    shoe = analysis.shoe
    if shoe.decks == INFINITE:
        return INFINITE
    decks = int(shoe.rank_counts.sum()) // 52
    if shoe.rank_counts.tolist() != [4 * decks] * 13:
        raise AnalyzerError("help pages describe a full shoe: give no --remove or --shoe")
    return decks


#: The sentence naming a page's decks, where it is not "{count} standard 52-card decks".
_DECK_COUNT = {1: "deck_count_one", INFINITE: "deck_count_infinite"}


def _unknowns_text(values: Mapping[str, Fraction]) -> str:
    """``p = 1/16, q = 0.3``: the values given for a paytable's unknowns, exactly."""
    return ", ".join(f"{name} = {fraction_text(value)}" for name, value in values.items())


def _footer(config: SiteConfig, version: str, lang: str) -> list[str]:
    """The footer's paragraphs: the operator's text, a paragraph a line, or the shipped one."""
    if config.footer is not None:
        return [line.strip() for line in config.footer.splitlines() if line.strip()]
    return [sentence("footer", lang, version=version)]


def render_site(
    entries: Sequence[SitePaytable],
    config: SiteConfig | None = None,
    skipped: Sequence[tuple[str, str]] = (),
) -> dict[str, str | bytes]:
    """Every file of the site, by path: ``index.html``, ``style.css``, per paytable
    ``SLUG/LANG.html``, and where a paytable has effects of removal its analysts' pages
    ``analyst/SLUG/LANG.html`` with their charts ``analyst/SLUG/eor-LANG.png``; with a
    ``config``, the operator's logo and stylesheet. ``skipped``: paytables given no pages,
    (name, why), listed on the index."""
    config = config or SiteConfig()
    slugs = [entry.slug for entry in entries]
    for slug in slugs:
        if slugs.count(slug) > 1:
            raise AnalyzerError(
                f"two paytables would share the page folder {slug!r}: rename one file"
            )
        if page_slug(slug) != slug:
            raise AnalyzerError(f"bad page folder name {slug!r}")
    environment = _environment()
    page = environment.get_template("page.html")
    analyst = environment.get_template("analyst.html")
    version = package_version()
    decimals = config.decimals
    files: dict[str, str | bytes] = {"style.css": (_SITE / "style.css").read_text(encoding="utf-8")}
    if config.stylesheet is not None:
        files[STYLESHEET] = config.stylesheet
    if config.logo is not None:
        files[config.logo[0]] = config.logo[1]
    languages = [(code, LANGUAGE_NAMES[code]) for code in config.languages]

    def common(lang: str, root: str) -> dict[str, object]:
        """What every page shows around its content: the operator's header, the
        stylesheets, the languages and the footer."""
        return {
            "lang": lang,
            "root": root,
            "languages": languages,
            "version": version,
            "operator": config.operator,
            "logo": config.logo[0] if config.logo else None,
            "stylesheets": ["style.css"] + ([STYLESHEET] if config.stylesheet else []),
            "footer": _footer(config, version, lang),
            "t": lambda key, _lang=lang, **fields: sentence(key, _lang, **fields),
            "w": lambda text, _lang=lang: word(text, _lang),
        }

    index = []
    for entry in entries:
        analysis = entry.analysis
        decks = _decks(analysis)
        max_rtp = _max_rtp(analysis, decimals)
        facts = rules_facts(analysis.paytable.rules)
        index.append(
            {
                "slug": entry.slug,
                "name": analysis.paytable.name,
                "decks": decks,
                "bets": len(dict.fromkeys(r.bet.id for r in analysis.results)),
                "max_rtp": max_rtp,
                "analyst": entry.effects is not None,
            }
        )
        for lang in config.languages:
            files[f"{entry.slug}/{lang}.html"] = page.render(
                **common(lang, "../"),
                title=analysis.paytable.name,
                decks=sentence(_DECK_COUNT.get(decks, "deck_count"), lang, count=decks),
                game=_game_text(analysis.paytable.game, decks, lang),
                naturals=_alternatives(facts["naturals"], lang) if facts["naturals"] else "",
                infinite=decks == INFINITE,
                rule_lines=rules_lines(facts, analysis.paytable, lang),
                chooses=facts["chooses"],
                third_card=facts["third_card"],
                modes=analysis.modes,
                modes_text=", ".join(_quoted(word(m, lang)) for m in analysis.modes),
                bets=_bets_table(analysis, lang),
                any_max_round=any(r.bet.max_round for r in analysis.results),
                odds=_odds_table(analysis, lang, decimals),
                unavailable=unavailable_lines(analysis, lang),
                max_rtp=max_rtp,
                rtp_line=_rtp_line(analysis, max_rtp, lang),
                unknowns=_unknowns_text(entry.unknowns) if entry.unknowns else None,
                multipliers=_multiplier_lines(analysis.paytable, lang),
                fee=bool(analysis.paytable.fee),
                multiplied=_multiplied_lines(analysis, lang),
            )
            if entry.effects is None:
                continue
            names = {r.bet.id: r.bet.display_name(lang) for r in analysis.results}
            shown = effects_shown_once(entry.effects, analysis.modes)
            data, size = _png(effects_figure(shown, lang=lang, names=names))
            files[f"{ANALYST}/{entry.slug}/eor-{lang}.png"] = data
            files[f"{ANALYST}/{entry.slug}/{lang}.html"] = analyst.render(
                **common(lang, "../../"),
                title=analysis.paytable.name,
                slug=entry.slug,
                unknowns=_unknowns_text(entry.unknowns) if entry.unknowns else None,
                eor_image=f"eor-{lang}.png",
                eor_size=size,
            )
    # Listed by the name a reader sees, not by folder or file name: case set aside, and
    # names that compare equal kept in the order given.
    index.sort(key=lambda entry: entry["name"].casefold())
    files["index.html"] = environment.get_template("index.html").render(
        **common("en", ""),
        entries=index,
        analysts=[entry for entry in index if entry["analyst"]],
        skipped=list(skipped),
    )
    return files
