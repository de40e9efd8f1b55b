"""The reference pages name everything the code accepts: every key of every file format
(read off the code's own lists of keys, so a new key fails here until it is documented)
and every key of every command's JSON output."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from analyzer.game import rules
from analyzer.paytables import claims
from analyzer.reports import site_config
from tests.docs.pages import DOCS

ROOT = DOCS.parent
GOLDEN = ROOT / "tests" / "data" / "golden"


def _check_keys_literals(path: Path) -> set[str]:
    """The keys of every ``check_keys(data, {...}, where)`` call written with literal sets."""
    keys: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "check_keys":
            for part in ast.walk(node.args[1]):
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    keys.add(part.value)
    return keys


def _documented(page: str) -> set[str]:
    return set(re.findall(r"`([A-Za-z0-9_:<> ]+)`", (DOCS / page).read_text(encoding="utf-8")))


def file_keys() -> set[str]:
    keys = {key.name for key in (*claims.FILE_KEYS, *claims.CLAIM_KEYS)} | set(rules._RULE_KEYS)
    for module in ("paytables/model.py", "paytables/multipliers.py", "paytables/claims.py"):
        keys |= _check_keys_literals(ROOT / "analyzer" / module)
    return keys | set(site_config.KEYS)


def test_the_key_lists_are_found() -> None:
    keys = file_keys()
    assert {"name", "decks", "bet", "when", "pays", "meter", "cap", "quantity"} <= keys
    assert {"naturals", "banker_draws", "given", "true_count_decks"} <= keys


def test_every_file_key_is_documented() -> None:
    missing = sorted(file_keys() - _documented("reference/file-formats.md"))
    assert not missing, f"keys the file formats page does not give: {missing}"


def test_every_quantity_is_documented() -> None:
    text = (DOCS / "reference" / "file-formats.md").read_text(encoding="utf-8")
    for quantity in claims.QUANTITIES:
        assert f"`{quantity}`" in text


_CARD = re.compile(r"(10|[2-9AJQKT])[SHDC]")


def _data_names() -> set[str]:
    """Keys that are data, not names of the output's fields: bet ids and modes (of the
    shipped paytables and the golden outputs' own), cards, totals and strategy cells."""
    from analyzer.paytables.library import library_names, load_paytable

    names: set[str] = set()
    for name in library_names():
        paytable = load_paytable(name)
        names |= set(paytable.bet_ids) | set(paytable.modes)
    return names


def _is_data(key: str, data_names: set[str]) -> bool:
    return key in data_names or key.isdigit() or bool(_CARD.fullmatch(key)) or ":" in key


def _json_keys(value, into: set[str]) -> set[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            into.add(key)
            _json_keys(item, into)
    elif isinstance(value, list):
        for item in value:
            _json_keys(item, into)
    return into


@pytest.fixture(scope="module")
def data_names() -> set[str]:
    return _data_names()


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_every_json_key_is_documented(path: Path, data_names: set[str]) -> None:
    keys = _json_keys(json.loads(path.read_text(encoding="utf-8")), set())
    keys = {key for key in keys if not _is_data(key, data_names)}
    missing = sorted(keys - _documented("reference/json-outputs.md"))
    assert not missing, f"{path.name}: keys the JSON outputs page does not give: {missing}"
