"""Words for tables in the languages of the help pages: English, Tagalog, Malay.

Tagalog terms follow seed 000 and Malay terms seed 003 where the pages use them
("Uri ng Taya", "Kabuuang Bayad", "Max na Round"; "Jenis Pertaruhan", "Pembayaran",
"Had Pusingan Maks", "Tolak"); the rest are plain translations.
"""

from __future__ import annotations

import functools
import tomllib

from analyzer.errors import AnalyzerError
from analyzer.files import shipped_folder
from analyzer.paytables.model import LANGUAGES

_WORDS: dict[str, dict[str, str]] = {
    "Bet": {"tl": "Uri ng Taya", "ms": "Jenis Pertaruhan"},
    "Mode": {"tl": "Paraan ng Pagtaya", "ms": "Mod Pertaruhan"},
    "Pays": {"tl": "Kabuuang Bayad", "ms": "Pembayaran"},
    "House edge": {"tl": "Kalamangan ng Bahay", "ms": "Kelebihan Rumah"},
    "RTP": {"tl": "RTP", "ms": "RTP (Pulangan Pemain)"},
    "Hit frequency": {"tl": "Dalas ng Panalo", "ms": "Kekerapan Menang"},
    "Push": {"tl": "Push", "ms": "Tolak"},
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
    "house edge": {"tl": "kalamangan ng bahay", "ms": "kelebihan rumah"},
    "otherwise": {"tl": "iba pa", "ms": "lain-lain"},
    # what a line pays, where it is a word (a paytable's "push" and "lose")
    "push": {"tl": "push", "ms": "tolak"},
    "lose": {"tl": "talo", "ms": "kalah"},
    "fee (paid on every bet)": {"tl": "bayad (sa bawat taya)", "ms": "yuran (setiap pertaruhan)"},
    "commission": {"tl": "Baccarat", "ms": "Bakarat"},
    "no_commission": {"tl": "Walang Komisyon Baccarat", "ms": "Tiada Baccarat Komisi"},
    "all": {"tl": "Lahat ng mode", "ms": "Semua mod"},
    # The workbook's (PAR sheet's) headers; a word without a translation here is shown
    # in English.
    "exact": {"tl": "eksakto", "ms": "tepat"},
    "Condition": {"tl": "Kondisyon", "ms": "Syarat"},
    "Contribution": {"tl": "Ambag", "ms": "Sumbangan"},
    "Total": {"tl": "Kabuuan", "ms": "Jumlah"},
    "Variance": {"tl": "Variance", "ms": "Varians"},
    "Sheet": {"tl": "Sheet", "ms": "Helaian"},
    "Volatility index": {"tl": "Volatility index", "ms": "Indeks volatiliti"},
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
    return tomllib.loads(_SENTENCES_FILE.read_text(encoding="utf-8"))


#: Each language's own name, for links between the pages.
LANGUAGE_NAMES = {"en": "English", "tl": "Tagalog", "ms": "Bahasa Melayu"}


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise AnalyzerError(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
    return lang


def word(text: str, lang: str) -> str:
    """``text`` in ``lang`` (English, the key, when there is no translation)."""
    if lang == "en":
        return _ENGLISH_MODES.get(text, text)
    return _WORDS.get(text, {}).get(lang, _ENGLISH_MODES.get(text, text))


def sentence(key: str, lang: str, **fields: object) -> str:
    """The help-page sentence ``key`` in ``lang`` with its ``{fields}`` filled in. Every
    sentence has every language: an unknown key is a programming error, not a fallback."""
    return _sentences()[key][lang].format(**fields)


def sentences() -> dict[str, dict[str, str]]:
    """Every help-page sentence: id -> {language: text} (for tests)."""
    return {key: dict(value) for key, value in _sentences().items()}
