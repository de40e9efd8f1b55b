"""Table words in the languages of the help pages."""

from __future__ import annotations

import re

import pytest

from analyzer.errors import AnalyzerError
from analyzer.reports.i18n import LANGUAGES, check_language, sentence, sentences, word


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


def test_every_help_page_sentence_is_in_every_language_with_the_same_fields() -> None:
    fields = re.compile(r"\{(\w+)\}")
    for key, texts in sentences().items():
        assert set(texts) == set(LANGUAGES), key
        assert all(text.strip() for text in texts.values()), key
        wanted = sorted(fields.findall(texts["en"]))
        for lang in LANGUAGES:
            assert sorted(fields.findall(texts[lang])) == wanted, (key, lang)


def test_sentences_fill_their_fields() -> None:
    assert sentence("max_rtp", "tl", rtp="98.94%") == "Ang pinakamataas na RTP ng laro ay 98.94%."
    with pytest.raises(KeyError):
        sentence("no such sentence", "en")
