"""Words for tables in the languages of the help pages: English, Tagalog, Malay.

Tagalog terms follow seed 000 and Malay terms seed 003 where the pages use them
("Uri ng Taya", "Kabuuang Bayad", "Max na Round"; "Jenis Pertaruhan", "Pembayaran",
"Had Pusingan Maks", "Tolak"); the rest are plain translations. A term kept in English
on purpose (Tagalog's "RTP", "Push", "Shoe", as the seed page writes them) is marked
:data:`SAME`, never left out: every word a table of ``report``, the PAR sheet or the help
pages shows has an entry in every language (the tests check it).
"""

from __future__ import annotations

import functools
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.files import shipped_folder, toml_data
from analyzer.paytables.model import LANGUAGES

#: A translation that is the English word itself, on purpose: a term the seed pages keep
#: in English ("RTP", "Push", "standard"), or a name ("ez"). Marked so, not left out, so
#: that every word of a table is known to be in every language (see :func:`has_word`).
SAME = "\x00same"

_WORDS: dict[str, dict[str, str]] = {
    "Bet": {"tl": "Uri ng Taya", "ms": "Jenis Pertaruhan"},
    "Mode": {"tl": "Paraan ng Pagtaya", "ms": "Mod Pertaruhan"},
    "Pays": {"tl": "Kabuuang Bayad", "ms": "Pembayaran"},
    "House edge": {"tl": "Kalamangan ng Bahay", "ms": "Kelebihan Rumah"},
    "RTP": {"tl": SAME, "ms": "RTP (Pulangan Pemain)"},
    "Hit frequency": {"tl": "Dalas ng Panalo", "ms": "Kekerapan Menang"},
    "Push": {"tl": SAME, "ms": "Tolak"},
    "Std dev": {"tl": "Standard Deviation", "ms": "Sisihan Piawai"},
    "Edge per resolved bet": {
        "tl": "Kalamangan kada Nalutas na Taya",
        "ms": "Kelebihan bagi Pertaruhan Selesai",
    },
    "Max round": {"tl": "Max na Round", "ms": "Had Pusingan Maks"},
    "Outcome": {"tl": "Resulta", "ms": "Keputusan"},
    "Combinations": {"tl": "Kombinasyon", "ms": "Kombinasi"},
    "Probability": {"tl": "Probabilidad", "ms": "Kebarangkalian"},
    "Return": {"tl": "Balik", "ms": "Pulangan"},
    # "1 in N": how often a line comes, one round in N
    "1 in N": {"tl": "1 sa N", "ms": "1 dalam N"},
    "Top award": {"tl": "Pinakamataas na Gantimpala", "ms": "Hadiah Tertinggi"},
    "house edge": {"tl": "kalamangan ng bahay", "ms": "kelebihan rumah"},
    "otherwise": {"tl": "iba pa", "ms": "lain-lain"},
    # what a line pays, where it is a word (a paytable's "push" and "lose")
    "push": {"tl": SAME, "ms": "tolak"},
    "lose": {"tl": "talo", "ms": "kalah"},
    "fee (paid on every bet)": {"tl": "bayad (sa bawat taya)", "ms": "yuran (setiap pertaruhan)"},
    # The modes of the shipped paytables ("standard": both seed pages write the word as it
    # is; "ez": a name), and the rule set of the standard game (the same word).
    "commission": {"tl": "Baccarat", "ms": "Bakarat"},
    "no_commission": {"tl": "Walang Komisyon Baccarat", "ms": "Tiada Baccarat Komisi"},
    "all": {"tl": "Lahat ng mode", "ms": "Semua mod"},
    "standard": {"tl": SAME, "ms": SAME},
    "ez": {"tl": SAME, "ms": SAME},
    # The other shipped rule sets: names, the same in every language.
    "baccarat-gold": {"tl": SAME, "ms": SAME},
    "bahamian": {"tl": SAME, "ms": SAME},
    "chemin-de-fer": {"tl": SAME, "ms": SAME},
    # The workbook's (PAR sheet's) words.
    "PAR sheet": {"tl": SAME, "ms": "Helaian PAR"},
    "Summary": {"tl": "Buod", "ms": "Ringkasan"},
    "Volatility": {"tl": SAME, "ms": "Volatiliti"},
    "Paytable": {"tl": "Talaan ng Bayad", "ms": "Jadual Bayaran"},
    "Shoe": {"tl": SAME, "ms": "Kasut"},
    "Modes": {"tl": "Mga Paraan ng Pagtaya", "ms": "Mod Pertaruhan"},
    "Drawing rules": {"tl": "Mga Patakaran sa Pagbunot", "ms": "Peraturan Cabutan"},
    "Game": {"tl": "Laro", "ms": "Permainan"},
    "Strategy": {"tl": "Estratehiya", "ms": "Strategi"},
    "Fee": {"tl": "Bayad", "ms": "Yuran"},
    "Multipliers": {"tl": "Mga Multiplier", "ms": "Pengganda"},
    "Bet id": {"tl": "ID ng Taya", "ms": "ID Pertaruhan"},
    "exact": {"tl": "eksakto", "ms": "tepat"},
    "Condition": {"tl": "Kondisyon", "ms": "Syarat"},
    "Net per unit staked": {
        "tl": "Net kada Yunit na Taya",
        "ms": "Bersih bagi Setiap Unit Pertaruhan",
    },
    "Contribution": {"tl": "Ambag", "ms": "Sumbangan"},
    "Total": {"tl": "Kabuuan", "ms": "Jumlah"},
    "Expected value per unit paid": {
        "tl": "Inaasahang Halaga kada Yunit na Ibinayad",
        "ms": "Nilai Dijangka bagi Setiap Unit Dibayar",
    },
    "Variance": {"tl": SAME, "ms": "Varians"},
    "Sheet": {"tl": SAME, "ms": "Helaian"},
    "Volatility index": {"tl": SAME, "ms": "Indeks volatiliti"},
    # a range's ends: "90% low", "90% high"
    "low": {"tl": "mababa", "ms": "rendah"},
    "high": {"tl": "mataas", "ms": "tinggi"},
}
_ENGLISH_MODES = {
    "commission": "Baccarat (commission)",
    "no_commission": "No Commission Baccarat",
    "all": "All modes",
}

#: The help pages' sentences (``docs --site``) in every language, by id: shipped as data
#: (``site/sentences.toml``), read once.
_SENTENCES_FILE = shipped_folder("analyzer.reports", "site") / "sentences.toml"


@functools.cache
def _sentences() -> dict[str, dict[str, str]]:
    return toml_data(_SENTENCES_FILE.read_bytes(), keep=True)


#: Each language's own name, for links between the pages.
LANGUAGE_NAMES = {"en": "English", "tl": "Tagalog", "ms": "Bahasa Melayu"}


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise AnalyzerError(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
    return lang


def word(text: str, lang: str) -> str:
    """``text`` in ``lang``: its translation, the English word where the dictionary says
    it is the same (:data:`SAME`), or, for a word it does not have (a paytable's own mode),
    the English word (or mode's name) itself."""
    english = _ENGLISH_MODES.get(text, text)
    if lang == "en":
        return english
    shown = _WORDS.get(text, {}).get(lang, english)
    return english if shown == SAME else shown


def has_word(text: str, lang: str) -> bool:
    """Whether the dictionary has ``text`` in ``lang`` (English has every word; a word
    marked :data:`SAME` has its English one), for the tests that every word of a table
    is translated."""
    return lang == "en" or lang in _WORDS.get(text, {})


def same_words(lang: str) -> set[str]:
    """The words ``lang`` writes as English does, on purpose (marked :data:`SAME`)."""
    if lang == "en":
        return set()
    return {word(text, "en") for text, texts in _WORDS.items() if texts.get(lang) == SAME}


def sentence(key: str, lang: str, **fields: object) -> str:
    """The help-page sentence ``key`` in ``lang`` with its ``{fields}`` filled in. Every
    sentence has every language: an unknown key is a programming error, not a fallback."""
    return _sentences()[key][lang].format(**fields)


def sentences() -> dict[str, dict[str, str]]:
    """Every help-page sentence: id -> {language: text} (for tests)."""
    return {key: dict(value) for key, value in _sentences().items()}


def page_words(paytable: Any) -> Any:
    """The words the help pages give the paytable's modes, in every language (its id,
    spaced, too: "no commission"), what they call every mode, and a mode column's header:
    the :class:`~analyzer.analysis.certify.PageWords` ``certify`` reads pages with."""
    from analyzer.analysis.certify import words_for

    names = []
    for mode in paytable.modes:
        for lang in LANGUAGES:
            names.append((mode, word(mode, lang)))
        names.append((mode, mode.replace("_", " ")))  # its id: "no commission"
    every = [word("all", lang) for lang in LANGUAGES]
    headers = [word("Mode", lang) for lang in LANGUAGES] + ["mode", "betting mode"]
    return words_for(paytable, names, every, headers)
