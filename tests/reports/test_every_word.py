"""Every word of every table in Tagalog and Malay: the PAR sheet workbook and the report's
documents in ``tl`` and ``ms`` hold no English left but what is the same in every
language: names and ids from the paytable, conditions, payouts, numbers, codes, and the
terms the dictionary keeps in English on purpose (marked :data:`~analyzer.reports.i18n.SAME`).

Each output is made in English and in the other language, and compared place by place
(a cell of a sheet, a table's header or cell, a heading, a paragraph's line): what is
equal in both must be made of those things only. The words the outputs look up
(:func:`~analyzer.reports.i18n.word`) are recorded, and each must be in the dictionary
in every language; the English headers must not be found in the other languages' text.
"""

from __future__ import annotations

import io
import pickle
import re
from fractions import Fraction
from types import SimpleNamespace

import openpyxl
import pytest

from analyzer import Shoe, analyze, load_paytable
from analyzer.analysis.verify import published_max_rtp
from analyzer.engine.pricing import Reason
from analyzer.game.cards import parse_cards
from analyzer.reports import i18n, site, tables, workbook
from analyzer.reports.document import Heading, Paragraph, Table
from analyzer.reports.i18n import LANGUAGES, has_word, same_words, sentence, word
from analyzer.reports.tables import reason_text, report_document, shoe_text
from analyzer.reports.workbook import workbook_bytes
from analyzer.reports.writers import write_document

OTHERS = [lang for lang in LANGUAGES if lang != "en"]


@pytest.fixture(scope="module")
def analyses() -> dict[str, tuple]:
    """name -> (analysis, claimed maximum RTP or None): the seed game (two modes, its
    claim), a multiplied game with a fee, a progressive jackpot, other drawing rules and
    decisions, a shoe whose suits are unknown (a bet that cannot be computed)."""
    multiplied = load_paytable("golden-wealth-baccarat").with_unknowns(
        {"a": Fraction(3, 10), "b": Fraction(1, 10), "c": Fraction(1, 20)}
    )
    seed = analyze()
    suits_unknown = Shoe.standard(8).remove(parse_cards("5", suit_required=False))
    return {
        "seed": (seed, published_max_rtp(seed.paytable)),
        "multiplied": (analyze(paytable=multiplied), None),
        "jackpot": (analyze(paytable="jackpot-baccarat"), None),
        "rules": (analyze(paytable="chemin-de-fer"), None),
        "unavailable": (
            analyze(shoe=suits_unknown, bets=["perfect_pair", "tie", "player_bonus"]),
            published_max_rtp(seed.paytable),
        ),
    }


def neutral_texts(analysis, lang: str) -> list[str]:
    """What is the same in English and ``lang`` on purpose: the paytable's names, ids,
    labels, conditions and payouts, the decisions as the paytable writes them, and the
    words the dictionary keeps (longest first, as they are taken out of a text)."""
    paytable = analysis.paytable
    texts = {paytable.name, str(paytable.strategy), *same_words(lang)}
    for result in analysis.results:
        bet = result.bet
        texts |= {bet.id, bet.display_name("en"), bet.display_name(lang)}
        for rule in bet.rules:
            texts |= {rule.payout.text, *rule.labels.values()}
        texts |= {line.when for line in result.lines}
    for bet, _, _ in analysis.unavailable:
        texts.add(bet)
    return sorted((text for text in texts if text), key=len, reverse=True)


#: Numbers (in scientific notation too: a top award's chance of none, 4.25E-4342628),
#: fractions, percentages, payouts, Excel's header codes, the tool's name and the z of a
#: confidence level: the same in every language.
_NEUTRAL_PARTS = re.compile(
    r"baccarat-odds [0-9][0-9a-z.+]*|sha256 [0-9a-f]+|&[A-Z]|\bz\b"
    r"|[0-9]+(?:[.,:/][0-9]+)*(?:E-?[0-9]+)?%?"
)


def english_left(text: str, neutral: list[str]) -> str:
    """What is left of ``text`` once every neutral thing is taken out: a word left is
    English the other language did not translate."""
    for part in neutral:
        text = text.replace(part, " ")
    text = _NEUTRAL_PARTS.sub(" ", text)
    return " ".join(re.findall(r"[^\W\d_]+", text))


# -- The workbook ------------------------------------------------------------------------------


def workbook_texts(data: bytes) -> dict[tuple, str]:
    """Every text of a workbook by its place: the document's title, each sheet's name,
    printed header and footer, and each text cell."""
    book = openpyxl.load_workbook(io.BytesIO(data))
    texts: dict[tuple, str] = {("title",): book.properties.title}
    for number, sheet in enumerate(book.worksheets):
        texts[number, "name"] = sheet.title
        for where, part in [("header", sheet.oddHeader), ("footer", sheet.oddFooter)]:
            for side in ("left", "center", "right"):
                texts[number, where, side] = getattr(part, side).text or ""
        for row in sheet.iter_rows():
            for cell in row:
                if cell.data_type == "s":  # (not a formula: the workbook's own)
                    texts[number, cell.coordinate] = cell.value
    return texts


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("case", ["seed", "multiplied", "jackpot", "rules", "unavailable"])
def test_every_word_of_the_par_sheet_is_in_the_language(analyses, case, lang) -> None:
    analysis, claim = analyses[case]
    english = workbook_texts(workbook_bytes(analysis, claimed_max_rtp=claim, lang="en"))
    other = workbook_texts(workbook_bytes(analysis, claimed_max_rtp=claim, lang=lang))
    assert english.keys() == other.keys()  # the same layout, every text in its place
    neutral = neutral_texts(analysis, lang)
    untranslated = {
        place: text
        for place, text in english.items()
        if other[place] == text and english_left(text, neutral)
    }
    assert not untranslated, untranslated
    translated = sum(other[place] != text for place, text in english.items())
    assert translated > 40  # (the test compares something)


def test_the_par_sheets_own_words_are_translated() -> None:
    """The words the English-only workbook used to write, as the Tagalog and Malay
    workbooks now write them."""
    seed = analyze(bets=["tie"])
    for lang, summary, page, shoe, low in [
        ("tl", "Buod", "Pahina &P ng &N", "8 deck (416 baraha)", "90% mababa"),
        ("ms", "Ringkasan", "Halaman &P daripada &N", "8 dek (416 kad)", "90% rendah"),
    ]:
        texts = set(workbook_texts(workbook_bytes(seed, lang=lang)).values())
        assert {summary, page, shoe, low} <= texts
        assert sentence("par_volatility_note", lang) in texts
        assert sentence("par_after_rounds", lang, rounds="1,000") in texts
        for english in ("Summary", "Paytable", "Bet id", "Net per unit staked", "90% low"):
            assert english not in texts


# -- The report's documents --------------------------------------------------------------------


def document_texts(document) -> dict[tuple, str]:
    """Every text of a document for people by its place: the title, headings, each line
    of a paragraph, each table's headers and text cells."""
    texts: dict[tuple, str] = {("title",): document.title}
    for number, block in enumerate(document.people_blocks()):
        if isinstance(block, Heading):
            texts[number, "heading"] = block.text
        elif isinstance(block, Paragraph):
            for line_number, line in enumerate(block.lines):
                texts[number, line_number] = line
        elif isinstance(block, Table):
            for col, header in enumerate(block.header):
                texts[number, "header", col] = header
            for row_number, row in enumerate(block.display_rows()):
                for col, cell in enumerate(row):
                    texts[number, row_number, col] = cell
    return texts


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("detail", [False, True])
@pytest.mark.parametrize("case", ["seed", "multiplied", "jackpot", "rules", "unavailable"])
def test_every_word_of_the_report_is_in_the_language(analyses, case, detail, lang) -> None:
    analysis, claim = analyses[case]
    english = document_texts(
        report_document(analysis, detail=detail, claimed_max_rtp=claim, lang="en")
    )
    other = document_texts(
        report_document(analysis, detail=detail, claimed_max_rtp=claim, lang=lang)
    )
    assert english.keys() == other.keys()
    neutral = neutral_texts(analysis, lang)
    untranslated = {
        place: text
        for place, text in english.items()
        if other[place] == text and english_left(text, neutral)
    }
    assert not untranslated, untranslated


#: The English headers and words of the report's tables, none of which Tagalog or Malay
#: writes as it is.
ENGLISH_HEADERS = [
    "House edge",
    "Hit frequency",
    "Std dev",
    "Edge per resolved bet",
    "Max round",
    "Outcome",
    "Combinations",
    "Probability",
    "All modes",
    "otherwise",
    "cannot be computed exactly",
    "decks (",
    "cards)",
    "suits are not known",
]


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "latex"])
def test_no_english_header_in_the_formats(analyses, fmt, lang) -> None:
    for case in ("seed", "unavailable"):
        analysis, claim = analyses[case]
        for detail in (False, True):
            document = report_document(analysis, detail=detail, claimed_max_rtp=claim, lang=lang)
            text = write_document(document, fmt, width=None)
            assert isinstance(text, str)
            found = [english for english in ENGLISH_HEADERS if english in text]
            assert not found, (case, detail, found)


# -- The dictionary ------------------------------------------------------------------------------


@pytest.fixture
def looked_up(monkeypatch) -> set[str]:
    """Every word the reports look up from here on (``word`` as each module holds it)."""
    seen: set[str] = set()

    def spy(text: str, lang: str) -> str:
        seen.add(text)
        return i18n.word(text, lang)

    for module in (tables, workbook, site):
        monkeypatch.setattr(module, "word", spy)
    return seen


@pytest.mark.parametrize("lang", OTHERS)
def test_every_word_looked_up_is_in_the_dictionary(analyses, looked_up, lang) -> None:
    """Every word the report (each format, with and without detail), the PAR sheet and
    the help pages look up has an entry in ``lang``: a translation, or marked the same."""
    for analysis, claim in analyses.values():
        for detail in (False, True):
            document = report_document(analysis, detail=detail, claimed_max_rtp=claim, lang=lang)
            for fmt in ("text", "markdown", "html"):
                write_document(document, fmt)
        workbook_bytes(analysis, claimed_max_rtp=claim, lang=lang)
    # The help pages, in every language (of a full shoe: every case but one).
    full = [name for name in analyses if name != "unavailable"]
    site.render_site([site.SitePaytable(name, analyses[name][0]) for name in full])
    assert {"Bet", "Paytable", "Shoe", "low", "commission", "all", "push", "lose"} <= looked_up
    missing = sorted(text for text in looked_up if not has_word(text, lang))
    assert not missing, missing


def test_every_shipped_mode_and_rule_set_is_in_the_dictionary() -> None:
    from analyzer.game.rules import RULE_SET_NAMES
    from analyzer.paytables.library import library_names

    modes = {mode for name in library_names() for mode in load_paytable(name).modes}
    for lang in OTHERS:
        missing = [text for text in [*modes, *RULE_SET_NAMES] if not has_word(text, lang)]
        assert not missing, (lang, missing)


def test_same_words_are_marked_and_shown_in_english() -> None:
    assert {"RTP", "Push", "Shoe", "Volatility", "standard"} <= same_words("tl")
    assert "RTP" not in same_words("ms") and "Shoe" not in same_words("ms")
    assert word("RTP", "tl") == "RTP" and word("Shoe", "tl") == "Shoe"
    assert word("Shoe", "ms") == "Kasut"
    assert has_word("RTP", "tl") and not has_word("no such word", "tl")
    assert same_words("en") == set()


# -- The shoe and the reasons in words -----------------------------------------------------------


@pytest.mark.parametrize(
    "shoe",
    [
        Shoe.standard(8),
        Shoe.standard(1),
        Shoe.standard(8).remove(parse_cards("5H KS")),
        Shoe.standard(8).remove(parse_cards("5", suit_required=False)),
        Shoe.infinite(),
    ],
    ids=["decks", "deck", "removed", "suits-unknown", "infinite"],
)
def test_the_shoe_in_words_is_describe_in_english(shoe) -> None:
    assert shoe_text(shoe, "en") == shoe.describe()
    for lang in OTHERS:
        assert shoe_text(shoe, lang) != shoe.describe()


def test_every_reason_says_its_english_and_translates() -> None:
    """Each engine's reason: its English text is the sentence's English, and it has its
    own text in every other language; it pickles (an analysis goes to a worker)."""
    from analyzer.engine.pricing import Pricing, _multiplied

    reasons = [
        Pricing("identities", "none", needs_suits=True).unavailable(False),
        Pricing("cards", "none", needs_suits=True).unavailable(False),
        Pricing(
            "round", "suit", needs_suits=True, suited=frozenset({"player_suited_pair"})
        ).unavailable(False),
        # A multiplied bet on the cards themselves; one on pairs, multiplied by the
        # winner's cards (as the engine sees a bet: what it looks at, what multiplies it).
        _multiplied(SimpleNamespace(card_level=True, multiply="winner"), "none").why_not,
        _multiplied(SimpleNamespace(card_level=False, multiply="winner"), "rank").why_not,
    ]
    keys = set()
    for reason in reasons:
        assert isinstance(reason, Reason)
        keys.add(reason.key)
        assert sentence(f"why_{reason.key}", "en", **dict(reason.fields)) == reason
        assert reason_text(reason, "en") == reason
        for lang in OTHERS:
            assert reason_text(reason, lang) != reason
        again = pickle.loads(pickle.dumps(reason))
        assert (again, again.key, again.fields) == (reason, reason.key, reason.fields)
    assert len(keys) == 5  # every reason the engine gives
    assert reason_text("any other text", "tl") == "any other text"
