"""Table words in the languages of the help pages."""

from __future__ import annotations

import re

import pytest

from analyzer.errors import AnalyzerError
from analyzer.reports.i18n import LANGUAGES, check_language, word


@pytest.mark.parametrize(
    ("text", "lang", "shown"),
    [
        # Seed 000 (Tagalog) and seed 003 (Malay) help pages.
        ("Bet", "tl", "Uri ng Taya"),
        ("Pays", "tl", "Kabuuang Bayad"),
        ("Max round", "tl", "Max na Round"),
        ("Bet", "ms", "Jenis Pertaruhan"),
        ("Pays", "ms", "Pembayaran"),
        ("Max round", "ms", "Had Pusingan Maks"),
        ("Push", "ms", "Tolak"),
        # English is the key, but for the two modes of the seed game.
        ("Bet", "en", "Bet"),
        ("commission", "en", "Baccarat (commission)"),
        ("no_commission", "en", "No Commission Baccarat"),
        # No translation: the English word, or the mode's English name.
        ("Lucky Six", "ms", "Lucky Six"),
        ("ez", "tl", "ez"),
    ],
)
def test_words(text, lang, shown) -> None:
    assert word(text, lang) == shown


def test_every_header_is_translated_in_every_language() -> None:
    headers = ["Bet", "Mode", "Pays", "House edge", "RTP", "Hit frequency", "Push", "Std dev"]
    headers += ["Edge per resolved bet", "Max round", "Outcome", "Combinations", "Probability"]
    for lang in LANGUAGES:
        shown = [word(h, lang) for h in headers]
        assert all(shown) and len(set(shown)) == len(headers), lang


def test_languages() -> None:
    assert LANGUAGES == ("en", "tl", "ms")
    for lang in LANGUAGES:
        assert check_language(lang) == lang
    for bad in ("fr", "EN", ""):
        message = f"unknown language '{bad}' (languages: en, tl, ms)"
        with pytest.raises(AnalyzerError, match=f"^{re.escape(message)}$"):
            check_language(bad)
