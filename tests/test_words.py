"""The words outputs share: one of a thing is singular, headings say so."""

import pytest

from analyzer.words import counted
from tests.helpers import run


@pytest.mark.parametrize(
    ("n", "noun", "text"),
    [
        (0, "shoe", "0 shoes"),
        (1, "deck", "1 deck"),
        (2, "deck", "2 decks"),
        (12345, "shoe", "12,345 shoes"),
    ],
)
def test_a_count_and_its_noun(n, noun, text) -> None:
    assert counted(n, noun) == text


def test_one_shoe_of_one_deck_in_the_headings(tmp_path, capsys) -> None:
    """simulate's and count's headings (each once said "1 shoes of 1 decks")."""
    common = ["--shoes", "1", "--decks", "1", "--no-progress", "--work-dir", str(tmp_path)]
    for command in (["simulate"], ["count", "--bet", "tie"]):
        code, out, _ = run(capsys, *command, *common)
        assert code == 0
        assert ": 1 shoe of 1 deck, " in out.splitlines()[0], out.splitlines()[0]
