"""The seed game's published help pages (copies in tests/data/seeds), read the way a
person compares two help pages: each bet's name, payouts and max round, and the Banker's
third-card table. Written from the pages' own text, not from the package."""

from __future__ import annotations

import re
from pathlib import Path

SEEDS = Path(__file__).resolve().parent / "data" / "seeds"
_FILES = {"000": "000_78b99584248e87c5.txt", "003": "003_e9fe957e965a18c5.txt"}
#: What each page calls a push, and how it marks a max round.
PUSH = {"tl": "Push", "ms": "Tolak", "en": "push"}
_MAX_ROUND = re.compile(r"(?:Max na Round|Had Pusingan Maks|Max round)\s*:\s*(\d+)")
_ODDS = re.compile(r"\d+(?:\.\d+)?:\d+")


def seed_text(seed: str) -> str:
    return (SEEDS / _FILES[seed]).read_text(encoding="utf-8")


def _table_rows(seed: str) -> list[list[list[str]]]:
    """Every Markdown-like table of the page: its rows, each a list of cells."""
    tables, current = [], []
    for line in seed_text(seed).splitlines():
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not all(set(cell) <= set("-") for cell in cells):  # not the |---| line
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    if current:
        tables.append(current)
    return tables


def seed_third_card_rows(seed: str) -> list[tuple[str, str, str]]:
    """The Banker's table (the first table of the page), header left out."""
    return [tuple(row) for row in _table_rows(seed)[0][1:]]


def payouts(name_cell: str, pays_cell: str, lang: str) -> tuple[tuple[str, ...], int | None]:
    """A bet's payouts (odds and pushes, sorted) and max round, from its two cells."""
    text = f"{name_cell} {pays_cell}"
    odds = _ODDS.findall(text)
    pushes = len(re.findall(rf"\b{PUSH[lang]}\b", text))
    found = _MAX_ROUND.search(name_cell)
    return tuple(sorted(odds + ["push"] * pushes)), int(found[1]) if found else None


def seed_payout_rows(
    seed: str, names: dict[str, str], lang: str
) -> dict[str, tuple[tuple[str, ...], int | None]]:
    """The bet types and payouts table (the second table), by bet: ``names`` maps each
    name the page may use to a bet id, the longest name that starts a row wins. A row that
    starts with no name continues the row before it (seed 003 splits its Banker row in
    two)."""
    rows: dict[str, list[str]] = {}
    last = None
    for cells in _table_rows(seed)[1][1:]:
        name_cell, pays_cell = ([*cells, ""])[:2]
        starting = [name for name in names if name_cell.startswith(name + " ")]
        if starting:
            last = names[max(starting, key=len)]
            rows[last] = [name_cell, pays_cell]
        else:
            rows[last][1] += f" {name_cell} {pays_cell}"
    return {bet: payouts(name, pays, lang) for bet, (name, pays) in rows.items()}
