"""The help pages (``docs --site``): valid, self-contained HTML; the rules laid out from
the drawing rules; the payouts table regenerating the seed pages' own; exact figures."""

from __future__ import annotations

import importlib.resources
import re
import tomllib
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import PurePosixPath

import html5lib
import naive
import pytest
from helpers import check_odds_table
from seed_pages import SEEDS, payouts, seed_payout_rows, seed_text, seed_third_card_rows

from analyzer import analyze
from analyzer.analysis.eor import removal_effects
from analyzer.analysis.exact import Analysis
from analyzer.errors import AnalyzerError
from analyzer.game.fields import FIELD
from analyzer.game.shoe import Shoe
from analyzer.paytables.library import library_names, load_paytable, priced_names
from analyzer.paytables.model import paytable_from_dict
from analyzer.reports.i18n import LANGUAGES, sentence
from analyzer.reports.site import (
    SiteGame,
    SitePaytable,
    page_slug,
    render_site,
    rules_facts,
    site_games,
)
from analyzer.reports.site_config import SiteConfig


def parse(text: str) -> ET.Element:
    """The page as a strict HTML5 parser reads it: any parse error fails the test."""
    return html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(text)


def text_of(element: ET.Element) -> str:
    return " ".join(" ".join(element.itertext()).split())


def page_payouts(page: str, lang: str) -> tuple[dict[str, str], dict[str, tuple]]:
    """A page's bet types and payouts table read as the seed's is: each bet's name (to its
    id), and its payouts and max round."""
    table = parse(page).find(".//table[@class='payouts']")
    names, found = {}, {}
    for tr in table.find("tbody"):
        th, td = tr.find("th"), tr.find("td")
        names[text_of(th.find("span[@class='bet-name']"))] = tr.get("data-bet")
        found[tr.get("data-bet")] = payouts(text_of(th), text_of(td), lang)
    return names, found


def shipped_games() -> tuple[list[SiteGame], list[tuple[str, str]]]:
    """The games of every shipped paytable, and those skipped (unknowns without values)."""
    return site_games([(name, load_paytable(name)) for name in library_names()])


@pytest.fixture(scope="module")
def games() -> list[SiteGame]:
    return shipped_games()[0]


@pytest.fixture(scope="module")
def site(games) -> dict[str, str | bytes]:
    """Every shipped paytable's pages, the seed game's with its effects of removal."""
    entries = []
    for game in games:
        effects = None
        if game.slug == "seed-game":
            shoe = Shoe.standard(game.paytable.decks)
            effects, _ = removal_effects(game.paytable, shoe, None, None)
        entries.append(SitePaytable(game.slug, analyze(paytable=game.paytable), effects))
    return render_site(entries, skipped=shipped_games()[1])


@pytest.mark.slow
def test_site_has_an_index_and_a_page_per_paytable_and_language(site, games) -> None:
    pages = {path for path in site if path.endswith(".html")}
    analyst = {f"analyst/seed-game/{lang}.html" for lang in LANGUAGES}
    assert pages == {"index.html"} | analyst | {
        f"{game.slug}/{lang}.html" for game in games for lang in LANGUAGES
    }
    assert {path for path in site if path.endswith(".png")} == {
        f"analyst/seed-game/eor-{lang}.png" for lang in LANGUAGES
    }
    index = parse(site["index.html"])
    links = {a.get("href") for a in index.iter("a")}
    assert links == pages - {"index.html"}


def test_effects_of_removal_are_on_analysts_pages_only(site) -> None:
    """A player's page never shows effects of removal: the seed game's charts are on
    pages of their own, linked from the index under "For analysts" (and not from the
    table of help pages), each linking back to its help page."""
    for lang in LANGUAGES:
        page = parse(site[f"seed-game/{lang}.html"])
        assert page.find(".//img") is None and page.find(".//section[@id='eor']") is None
        assert sentence("eor_heading", lang) not in text_of(page.find("body"))
        assert not any("analyst" in (a.get("href") or "") for a in page.iter("a"))
        analyst = parse(site[f"analyst/seed-game/{lang}.html"])
        assert analyst.find(".//section[@id='eor']//img").get("src") == f"eor-{lang}.png"
        assert analyst.find(".//table[@class='odds']") is None
        hrefs = {a.get("href") for a in analyst.iter("a")}
        assert {"../../index.html", f"../../seed-game/{lang}.html"} <= hrefs
    index = parse(site["index.html"])
    table_links = {a.get("href") for a in index.find(".//table[@class='index']").iter("a")}
    assert not any(link.startswith("analyst/") for link in table_links)
    section = index.find(".//section[@id='analysts']")
    assert text_of(section.find("h2")) == "For analysts"
    assert {a.get("href") for a in section.iter("a")} == {
        f"analyst/seed-game/{lang}.html" for lang in LANGUAGES
    }
    # Without effects of removal, no analysts' section.
    plain = render_site([SitePaytable("p", analyze(paytable=load_paytable("tie-9-to-1")))])
    assert parse(plain["index.html"]).find(".//section[@id='analysts']") is None
    assert not any(path.startswith("analyst/") for path in plain)


def test_paytables_with_unknowns_are_skipped_and_listed(site) -> None:
    """The shipped paytables whose multipliers have unknowns get no pages without
    values for them: the index lists each, with why."""
    _, skipped = shipped_games()
    with_unknowns = [name for name in library_names() if load_paytable(name).unknowns]
    assert with_unknowns == [
        "golden-wealth-baccarat",
        "lightning-dragon-tiger",
        "peek-baccarat",
        "prosperity-tree-baccarat",
    ]
    multipliers = "its multipliers' distribution has unknowns (give --unknowns)"
    shown = "the chances of its decision's cards shown have unknowns (give --unknowns)"
    why = {name: shown if name == "peek-baccarat" else multipliers for name in with_unknowns}
    assert skipped == [(name, why[name]) for name in with_unknowns]
    items = parse(site["index.html"]).find(".//section[@id='skipped']/ul")
    expected = [f"{name}: skipped: {why[name]}" for name in with_unknowns]
    assert [text_of(li) for li in items] == expected
    assert not any(path.startswith(tuple(with_unknowns)) for path in site)


def test_a_paytable_with_unknowns_is_made_at_the_values_given() -> None:
    named = [(name, load_paytable(name)) for name in library_names()]
    games, skipped = site_games(named, {"p": Fraction(7, 113)})
    assert [name for name, _ in skipped] == [
        "golden-wealth-baccarat",
        "lightning-dragon-tiger",
        "peek-baccarat",
    ]
    (game,) = [game for game in games if game.slug == "prosperity-tree-baccarat"]
    assert game.unknowns == {"p": Fraction(7, 113)} and not game.paytable.unknowns
    entry = SitePaytable(game.slug, analyze(paytable=game.paytable), unknowns=game.unknowns)
    files = render_site([entry])
    for lang in LANGUAGES:
        page = parse(files[f"prosperity-tree-baccarat/{lang}.html"])
        said = text_of(page.find(".//p[@class='unknowns']"))
        assert said == sentence("unknowns_values", lang, values="p = 7/113"), lang
        check_odds_table(page, entry.analysis)
    # Values for all of a paytable's unknowns, each an unknown of some paytable, in range.
    for values, words in [
        ({"q": Fraction(1)}, "'q' is not an unknown of any of these paytables"),
        ({"a": Fraction(1, 10)}, "golden-wealth-baccarat needs a value for b, c too"),
        ({"p": Fraction(2)}, "prosperity-tree-baccarat: p = 2 is outside its range"),
    ]:
        with pytest.raises(AnalyzerError, match=words):
            site_games(named, values)


def test_alternative_pay_tables_are_games_of_their_own(games) -> None:
    """A research file gathers a bet's alternative pay tables from its sources; a casino
    offers one: each is a game, with its own page, name and bets, never two bets of one
    game."""
    by_slug = {game.slug: game.paytable for game in games}
    expected = {
        "super-tie": [["super_tie"], ["super_tie_20"]],
        "lucky-nines": [["lucky_nines_binions"], ["lucky_nines_red_rock"]],
        "contrast-bonus": [[f"contrast_bonus_{n}"] for n in range(1, 5)],
        "dragon-bonus": [
            ["player_bonus", "banker_bonus"],
            ["player_bonus_alt", "banker_bonus_alt"],
        ],
    }
    for name, bets in expected.items():
        assert name not in by_slug
        shown = [by_slug[f"{name}-{n}"] for n in range(1, len(bets) + 1)]
        assert [list(table.bet_ids) for table in shown] == bets
        assert len({table.name for table in shown}) == len(bets)
        assert [alt for alt, _ in load_paytable(name).alternatives] == [t.name for t in shown]
    # Every other shipped paytable is one game, and every bet is on one page.
    assert len(games) == len(priced_names()) + sum(len(b) - 1 for b in expected.values())
    for name in priced_names():
        pages = [game.paytable for game in games if game.slug.startswith(name)]
        assert {b for table in pages for b in table.bet_ids} >= set(load_paytable(name).bet_ids)


def test_decimals_are_one_precision_for_every_figure(games) -> None:
    """Every percentage of the analysis on a page (the odds table, the RTP line, the
    index's column) has the configured decimals, 2 unless set, each rounded from its
    exact value."""
    chosen = [g for g in games if g.slug in ("seed-game", "super-tie-1", "dragon-bonus-2")]
    entries = [SitePaytable(g.slug, analyze(paytable=g.paytable)) for g in chosen]
    for decimals in (None, 0, 3, 6):
        config = None if decimals is None else SiteConfig(decimals=decimals)
        digits = 2 if decimals is None else decimals
        files = render_site(entries, config)
        for path, content in files.items():
            if not path.endswith(".html"):
                continue
            cells = [e for e in parse(content).iter() if e.get("data-exact")]
            assert len(cells) >= (1 if path == "index.html" else 4), path
            for cell in cells:
                exact = 100 * Fraction(cell.get("data-exact"))
                found = re.findall(r"-?[0-9]+(?:\.([0-9]+))?%", text_of(cell))
                assert len(found) == 1, (path, text_of(cell))
                assert len(found[0]) == digits, (path, decimals, text_of(cell))
                printed = Fraction(re.search(r"-?[0-9.]+(?=%)", text_of(cell))[0])
                assert abs(printed - exact) <= Fraction(1, 2 * 10**digits), (path, text_of(cell))


def _index_names(index: str) -> list[str]:
    return [text_of(tr.find("th")) for tr in parse(index).find(".//table[@class='index']/tbody")]


@pytest.mark.slow
def test_index_lists_paytables_by_the_name_shown(site, games) -> None:
    """Sorted as a reader looks a name up: by the name on the page, case set aside, not
    by the file or folder it comes from; equal names keep the order given."""
    names = _index_names(site["index.html"])
    assert len(names) == len(games)
    assert names == sorted(names, key=str.casefold)

    def one_bet(name: str) -> Analysis:
        return analyze(
            paytable=paytable_from_dict(
                {
                    "name": name,
                    "bet": [{"id": "tie", "rule": [{"when": "winner == 'tie'", "pays": 8}]}],
                }
            )
        )

    given = [("a", "zebra"), ("b", "Apple"), ("c", "apple"), ("d", "Mango"), ("e", "APPLE")]
    files = render_site([SitePaytable(slug, one_bet(name)) for slug, name in given])
    assert _index_names(files["index.html"]) == ["Apple", "apple", "APPLE", "Mango", "zebra"]
    rows = parse(files["index.html"]).find(".//table[@class='index']/tbody")
    assert [tr.get("data-paytable") for tr in rows] == ["b", "c", "e", "d", "a"]


@pytest.mark.slow
def test_every_page_is_valid_self_contained_html(site) -> None:
    for path, content in site.items():
        if not path.endswith(".html"):
            continue
        root = parse(content)
        lang = "en" if path == "index.html" else PurePosixPath(path).stem
        assert root.get("lang") == lang, path
        assert root.find("head/meta[@charset='utf-8']") is not None, path
        for th in root.iter("th"):
            assert th.get("scope") in ("col", "row"), (path, text_of(th))
        for banned in ("script", "iframe", "object", "embed", "base", "form"):
            assert root.find(f".//{banned}") is None, (path, banned)
        assert "style" not in {element.tag for element in root.iter()}, path
        stylesheets = [link.get("href") for link in root.iter("link")]
        assert len(stylesheets) == 1, path
        for element in root.iter():
            for attribute in ("href", "src"):
                target = element.get(attribute)
                if target is None:
                    continue
                assert "://" not in target and not target.startswith("/"), (path, target)
                resolved = PurePosixPath(path).parent / target
                parts = []
                for part in resolved.parts:
                    if part == "..":
                        parts.pop()
                    elif part != ".":
                        parts.append(part)
                assert "/".join(parts) in site, (path, target)
        # Nothing of the team's own files, nor their names, is what a reader sees.
        assert "shared" not in content and "GAME.md" not in content, path
        assert "seed" not in text_of(root.find("head/title")).casefold(), path


#: What a condition is written in and words never are: its comparisons and field names.
_CONDITION = re.compile(
    r"==|!=|<=|>=|\b(?:"
    + "|".join(name for name in FIELD if "_" in name or name == "winner")
    + r")\b"
)


@pytest.mark.slow
def test_no_shipped_help_page_shows_a_condition(site) -> None:
    """Every payout line of every shipped paytable is said in words: each rule a page
    lists has a label, but for a bet that pays one way and says what it wins on (the seed
    pages' own layout); and no page, in any language, shows a condition."""
    for name in priced_names():
        for bet in load_paytable(name).bets:
            listed = [rule for rule in bet.rules if rule.payout.kind != "lose"]
            unlabelled = [rule.condition.shown for rule in listed if "en" not in rule.labels]
            if len(listed) == 1 and bet.descriptions:
                continue
            assert not unlabelled, (name, bet.id, unlabelled)
    for path, content in site.items():
        if path.endswith(".html") and path != "index.html":
            page = parse(content)
            assert page.find(".//code") is None, path
            text = text_of(page.find("body"))
            assert not _CONDITION.search(text), (path, _CONDITION.search(text)[0])


def test_a_line_without_words_shows_its_condition() -> None:
    """The check above sees a condition where one is shown: a file's unlabelled line."""
    paytable = paytable_from_dict(
        {
            "name": "t",
            "bet": [
                {
                    "id": "tie",
                    "rule": [
                        {"when": "winner == 'tie' and total_cards == 6", "pays": 20},
                        {"when": "winner == 'tie'", "pays": 8, "label": "Any other tie"},
                    ],
                }
            ],
        }
    )
    page = parse(render_site([SitePaytable("t", analyze(paytable=paytable))])["t/en.html"])
    lines = [text_of(li) for li in page.find(".//ul[@class='payouts']")]
    assert lines == ["winner == 'tie' and total_cards == 6 20:1", "Any other tie 8:1"]
    assert _CONDITION.search(text_of(page.find("body")))


def test_stylesheet_is_shipped_and_prints() -> None:
    css = render_site([])["style.css"]
    assert "@media print" in css and "url(" not in css and "@import" not in css


@pytest.mark.slow
def test_third_card_table_is_the_seed_pages(site) -> None:
    """Laid out from THIRD_CARD, the Banker's table equals seed 000's and seed 003's."""
    ours = [(row["scores"], row["draws"], row["stands"]) for row in rules_facts()["third_card"]]
    for seed in ("000", "003"):
        assert ours == seed_third_card_rows(seed), seed
    for lang in LANGUAGES:
        table = parse(site[f"seed-game/{lang}.html"]).find(".//table[@class='third-card']")
        rows = [[text_of(cell) for cell in tr] for tr in table.find("tbody")]
        assert [tuple(row) for row in rows] == ours


@pytest.mark.slow
@pytest.mark.parametrize("name", ["baccarat-gold", "chemin-de-fer"])
def test_a_page_states_its_own_rules(site, name) -> None:
    """The Banker's table and the Player's lines of a variant's page say what its rule set
    says, cell by cell, read back from the page against tests/naive.py's reading of the
    rule set's own file."""
    rules = load_paytable(name).rules
    reference = naive.RuleTable(rules.table)
    page = parse(site[f"{name}/en.html"])
    table = page.find(".//table[@class='third-card']")
    header = [text_of(th) for th in table.find("thead/tr")]
    decides = len(header) == 4
    assert decides == bool(rules.table["banker_chooses"])
    for tr in table.find("tbody"):
        cells = [text_of(cell) for cell in tr]
        scores = [int(v) for v in cells[0].split(", ")]
        listed = [
            set() if c == "\N{EN DASH}" else {int(v) for v in c.split(", ")} for c in cells[1:]
        ]
        for banker in scores:
            chosen = {
                int(v)
                for v in reference._listed("", rules.table["banker_chooses"].get(str(banker), ""))
            }
            for value in range(10):
                column = 2 if value in chosen else 0 if value in listed[0] else 1
                assert value in listed[column], (banker, value)
                if value not in chosen:
                    assert reference.banker_draws(banker, value) == (column == 0), (banker, value)
    player = [text_of(li) for li in page.find(".//section[@id='rules']").iter("li")][-3:]
    assert "is 4 or less" in player[0] and "is 6 or 7" in player[1]
    played = load_paytable(name).strategy.probability
    choice = next(iter(played.values()))
    assert player[2].startswith("When the score of its first 2 cards is 5, the Player's hand may")
    assert player[2].endswith("draws." if choice == 1 else f"draws with probability {choice}.")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("paytable", "lang", "seed"),
    [("seed-game", "tl", "000"), ("seed-game-ms", "ms", "003")],
)
def test_payouts_table_regenerates_the_seed_page(site, paytable, lang, seed) -> None:
    """Every bet of the seed page, with the same payouts and max round, and no other."""
    names, ours = page_payouts(site[f"{paytable}/{lang}.html"], lang)
    theirs = seed_payout_rows(seed, names, lang)
    assert ours == theirs


@pytest.mark.slow
@pytest.mark.parametrize(
    ("paytable", "lang", "seed"), [("seed-game", "tl", "000"), ("seed-game-ms", "ms", "003")]
)
def test_sentences_are_the_seed_pages(site, paytable, lang, seed) -> None:
    page = parse(site[f"{paytable}/{lang}.html"])
    lines = seed_text(seed).splitlines()
    assert text_of(page.find(".//p[@class='max-rtp']")) in lines
    # The rules' opening, with the shoe's 8 decks filled in, is the seed page's own.
    assert text_of(page.find(".//section[@id='rules']/p")) in lines


@pytest.mark.slow
def test_only_a_game_with_a_main_bet_states_the_games_rtp(site, games) -> None:
    """A page states "the maximum RTP of the game" only where the paytable has a Player
    or Banker bet; a paytable of side bets has no game's RTP to claim, and says which of
    its bets returns most, in every language."""
    mains = {name for name in priced_names() if load_paytable(name).has_main_bet}
    assert mains == {
        "seed-game",
        "seed-game-ms",
        "banker-4-percent",
        "ez-baccarat",
        "tie-9-to-1",
        "baccarat-gold",
        "chemin-de-fer",
        # other games: a bet on which hand wins
        "dragon-tiger",
        "dragon-tiger-evolution",
        "dragon-tiger-pragmatic",
        "dragon-tiger-sa-gaming",
        "three-card-baccarat",
        "lucky-draw-baccarat-1",
        "lucky-draw-baccarat-2",
    }
    for game in games:
        name = game.slug
        analysis = analyze(paytable=game.paytable)
        best = max(analysis.results, key=lambda r: r.rtp)
        for lang in LANGUAGES:
            page = parse(site[f"{name}/{lang}.html"])
            game_line = page.find(".//p[@class='max-rtp']")
            best_line = page.find(".//p[@class='best-rtp']")
            if name in mains:
                assert best_line is None and Fraction(game_line.get("data-exact")) == best.rtp
                continue
            assert game_line is None, (name, lang)
            assert best_line.get("data-bet") == best.bet.id, (name, lang)
            assert Fraction(best_line.get("data-exact")) == best.rtp
            assert best.bet.display_name(lang) in text_of(best_line)
            assert sentence("max_rtp", lang, rtp="")[:-1] not in text_of(page.find("body"))
    # Super Tie, pay table 1: house edge 5.97% (Wizard of Odds, "Super Tie", 8 decks).
    line = parse(site["super-tie-1/en.html"]).find(".//p[@class='best-rtp']")
    assert text_of(line) == "The RTP of the best bet, Super Tie (pay table 1), is 94.03%."
    index = parse(site["index.html"]).find(".//table[@class='index']/thead")
    assert "Best bet's RTP" in text_of(index) and "Maximum" not in text_of(index)


@pytest.mark.slow
def test_odds_are_exact_and_each_bet_is_shown_once_when_modes_agree(site, games) -> None:
    for game in games:
        analysis = analyze(paytable=game.paytable)
        for lang in LANGUAGES:
            check_odds_table(parse(site[f"{game.slug}/{lang}.html"]), analysis)


def test_untrusted_text_is_escaped() -> None:
    paytable = paytable_from_dict(
        {
            "name": "<script>alert(1)</script>",
            "modes": ["m"],
            "bet": [
                {
                    "id": "x",
                    "name": "<b>bold</b>",
                    "description": '"><img src=x onerror=alert(1)>',
                    "rule": [{"when": "winner == 'tie'", "pays": "8:1", "label": "</td><td>"}],
                }
            ],
        }
    )
    files = render_site([SitePaytable("x", analyze(paytable=paytable))])
    root = parse(files["x/en.html"])
    assert root.find(".//script") is None and root.find(".//img") is None
    assert root.find(".//b") is None
    assert "<script>alert(1)</script>" in text_of(root.find(".//h1"))


def test_one_deck_in_words() -> None:
    paytable = paytable_from_dict(
        {
            "name": "t",
            "decks": 1,
            "bet": [{"id": "tie", "rule": [{"when": "winner == 'tie'", "pays": 8}]}],
        }
    )
    page = parse(render_site([SitePaytable("t", analyze(paytable=paytable))])["t/en.html"])
    assert "uses 1 standard 52-card deck without" in text_of(page.find(".//section[@id='rules']/p"))


def test_page_folders() -> None:
    assert page_slug("seed-game") == "seed-game"
    assert page_slug("My Game (v2)") == "my-game-v2"
    assert page_slug("../../etc") == "etc"
    assert page_slug("Jeu Spécial") == "jeu-special"  # accents dropped
    # Names with nothing to keep get folders of their own, made from their digests.
    assert page_slug("***").startswith("paytable-") and page_slug("ÄÖ") != page_slug("@@@")
    one = analyze(
        paytable=paytable_from_dict(
            {
                "name": "t",
                "modes": ["m"],
                "bet": [{"id": "tie", "rule": [{"when": "winner == 'tie'", "pays": 8}]}],
            }
        )
    )
    with pytest.raises(AnalyzerError, match="share the page folder 'a'"):
        render_site([SitePaytable("a", one), SitePaytable("a", one)])
    with pytest.raises(AnalyzerError, match="bad page folder name"):
        render_site([SitePaytable("../a", one)])
    depleted = analyze(paytable=one.paytable, shoe=Shoe(one.shoe.rank_counts - 1))
    with pytest.raises(AnalyzerError, match="full shoe"):
        render_site([SitePaytable("a", depleted)])


def test_seed_copies_are_the_teams() -> None:
    """The copies in tests/data/seeds are the team's seed pages, where those are here."""
    team = SEEDS.parents[2].parent / "shared" / "seeds"  # the team's folder, beside the tree
    if not team.is_dir():
        pytest.skip("the team's seed folder is not beside this checkout")
    for copy in SEEDS.glob("*.txt"):
        assert copy.read_bytes() == (team / copy.name).read_bytes(), copy.name


@pytest.mark.parametrize(
    ("old", "new"),
    [('pays = "25:1"', 'pays = "30:1"'), ("max_round = 40", "max_round = 45")],
)
def test_a_changed_paytable_no_longer_matches_its_help_page(old, new) -> None:
    """The comparison above catches drift: one payout or max round changed in the seed
    game's file, and its page no longer regenerates seed 000's table."""
    text = importlib.resources.files("analyzer.paytables") / "shipped" / "paytables"
    source = text.joinpath("seed-game.toml").read_text(encoding="utf-8")
    assert source.count(old) >= 1
    paytable = paytable_from_dict(tomllib.loads(source.replace(old, new, 1)))
    files = render_site([SitePaytable("seed-game", analyze(paytable=paytable))])
    names, ours = page_payouts(files["seed-game/tl.html"], "tl")
    theirs = seed_payout_rows("000", names, "tl")
    assert [bet for bet in ours if ours[bet] != theirs[bet]] == [
        "perfect_pair" if "25:1" in old else "player_bonus"
    ]


def test_a_bet_offered_in_some_modes_says_which() -> None:
    paytable = paytable_from_dict(
        {
            "name": "t",
            "modes": ["commission", "no_commission"],
            "bet": [
                {"id": "tie", "rule": [{"when": "winner == 'tie'", "pays": 8}]},
                {
                    "id": "red_six",
                    "modes": ["no_commission"],
                    "rule": [{"when": "banker_score == 6", "pays": 2}],
                },
            ],
        }
    )
    page = parse(render_site([SitePaytable("t", analyze(paytable=paytable))])["t/en.html"])
    rows = {tr.get("data-bet"): tr for tr in page.find(".//table[@class='payouts']/tbody")}
    assert rows["tie"].find(".//span[@class='mode-name']") is None  # in every mode
    assert text_of(rows["red_six"].find(".//span[@class='mode-name']")) == (
        "“No Commission Baccarat”"
    )


def test_a_page_of_the_infinite_deck_says_so() -> None:
    paytable = paytable_from_dict(
        {
            "name": "Infinite",
            "decks": "inf",
            "bet": [{"id": "player", "rule": [{"when": "winner == 'player'", "pays": 1}]}],
        }
    )
    files = render_site([SitePaytable("inf", analyze(paytable=paytable))])
    for lang in LANGUAGES:
        intro = text_of(parse(files[f"inf/{lang}.html"]).find(".//section[@id='rules']/p"))
        assert sentence("deck_count_infinite", lang) in intro, lang


def test_a_page_of_multipliers_states_them_and_the_fee(tmp_path) -> None:
    from helpers import MULTIPLIED_PAYTABLE, write_paytable

    paytable = load_paytable(write_paytable(tmp_path, MULTIPLIED_PAYTABLE))
    files = render_site([SitePaytable("m", analyze(paytable=paytable))])
    for lang in LANGUAGES:
        page = parse(files[f"m/{lang}.html"])
        section = text_of(page.find(".//section[@id='multipliers']"))
        assert sentence("multipliers_heading", lang) in section
        assert "2x (50%), 3x (30%), 4x (10%), 5x (6%), 8x (4%)" in section, lang
        assert "512" in section
        assert sentence("multiply_winner", lang) in section
        assert sentence("multiply_player_first_two", lang) in section
        assert text_of(page.find(".//section[@id='odds']")).count(sentence("odds_fee", lang)) == 1
    # A page without multipliers has no such section.
    plain = render_site([SitePaytable("p", analyze(paytable=load_paytable("seed-game")))])
    assert 'id="multipliers"' not in plain["p/en.html"]


def _game_page(name: str, lang: str) -> ET.Element:
    paytable = load_paytable(name)
    site = render_site([SitePaytable(name, analyze(paytable=paytable), None)], skipped=[])
    return parse(site[f"{name}/{lang}.html"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_page_of_another_game_states_its_rules_from_its_definition(lang) -> None:
    """Dragon Tiger's page says its hands, its deal and its score (rank, Ace low) in every
    language, no word of punto banco's drawing; the half lost on a tie is a payout line."""
    game = load_paytable("dragon-tiger").game
    page = _game_page("dragon-tiger", lang)
    rules = text_of(page.find(".//section[@id='rules']"))
    dragon, tiger = (hand.label(lang) for hand in game.hands)
    assert (
        sentence(
            "game_intro",
            lang,
            name=game.name,
            first=dragon,
            second=tiger,
            decks=(sentence("deck_count", lang, count=8)),
        )
        in rules
    )
    assert sentence("game_score_rank", lang) in rules
    assert sentence("third_card_heading", lang) not in rules
    assert page.find(".//table[@class='third-card']") is None
    payouts = text_of(page.find(".//table[@class='payouts']"))
    assert f"{ {'en': 'lose', 'tl': 'talo', 'ms': 'kalah'}[lang] } 1/2" in payouts


def test_three_card_baccarat_page_states_its_pictures_rule() -> None:
    rules = text_of(_game_page("three-card-baccarat", "en").find(".//section[@id='rules']"))
    assert sentence("game_score_points", "en") in rules
    assert sentence("game_score_pictures", "en") in rules
    assert "3 cards to Player, then 3 cards to Dealer" in rules


def test_a_punto_banco_decision_is_stated_in_every_language() -> None:
    """Peek Baccarat at values of its unknowns: the rules section states the decision,
    the chances of the cards shown, the bets and the fee, each in its language."""
    point = {"s1": Fraction(1, 8), "s2": Fraction(3, 4), "s3": Fraction(1, 16)}
    paytable = load_paytable("peek-baccarat").with_unknowns(point)
    entry = SitePaytable("peek", analyze(paytable=paytable, decks=1))
    files = render_site([entry])
    for lang in LANGUAGES:
        page = parse(files[f"peek/{lang}.html"])
        heading = next(
            h for h in page.iter("h3") if text_of(h) == sentence("decision_heading", lang)
        )
        section = page.find(".//section[@id='rules']")
        paragraphs = [text_of(p) for p in section.iter("p")]
        said = paragraphs[-1] if paragraphs else ""
        assert heading is not None and "1/8" in said and "3/4" in said and "1/16" in said, lang
        assert "20%" in said, lang  # the Peek fee
        assert said.count("Player") + said.count("Pemain") >= 2, lang
        # Each action by its word in the page's language (the file's labels).
        triple = {"en": "triple", "tl": "triplehin", "ms": "gandakan tiga"}[lang]
        assert triple in said, lang
