"""Every command's ``--format json`` follows its contract (:mod:`analyzer.reports.contract`):
validated with ``jsonschema`` against the JSON Schema shipped in the package, in every
variant that changes its shape; its CSV has the JSON rows' columns, typed as pandas reads
them; and a wrong document fails its schema (the validation can fail)."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import jsonschema
import pytest
from helpers import run

from analyzer.reports.contract import CONTRACTS, SCHEMA_FOLDER, schema_of
from analyzer.version import package_version

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
AUDIT_LOG = str(GOLDEN.parent / "audit-log.csv")
#: Logs of a shoe of Dragon Tiger and of Lucky Draw Baccarat, as simulate --log wrote them
#: (seed 21).
DRAGON_LOG = str(GOLDEN.parent / "audit-log-dragon-tiger.csv")
LUCKY_LOG = str(GOLDEN.parent / "audit-log-lucky-draw.csv")
RUN = ("--no-progress", "--workers", "1")
MULTIPLIED = ("--paytable", "golden-wealth-baccarat", "--unknowns", "a=1/10,b=1/20,c=1/50")
#: Values of Peek Baccarat's unknowns (the chances of one, two and three cards shown).
PEEK = "s1=1/8,s2=3/4,s3=1/16"

#: name -> argv: each command in every variant that changes its JSON's shape (one bet or
#: many, one mode or every mode, --detail, a fee and multipliers, a jackpot, other
#: drawing rules and a strategy, the infinite deck, cards removed, a shoe file, another
#: game's round...).
CASES: dict[str, list[str]] = {
    "report": ["report"],
    "report-one-bet-one-mode": ["report", "--bet", "tie", "--mode", "commission"],
    "report-detail-removed": ["report", "--bet", "tie", "--detail", "--remove", "5H 5 KS"],
    "report-infinite": ["report", "--paytable", "chemin-de-fer", "--decks", "inf"],
    "report-multiplied": ["report", *MULTIPLIED, "--bet", "tie", "--detail"],
    "report-strategy-tl": [
        *("report", "--paytable", "baccarat-gold", "--strategy", "player:5=stand"),
        *("--lang", "tl", "--bet", "player"),
    ],
    "play": ["play", "2S", "3H", "2D", "KC", "8H"],
    "play-one-mode": ["play", "2S", "3H", "2D", "KC", "8H", "--mode", "no_commission"],
    "play-multiplied": [
        *("play", "7S", "3H", "2D", "KC", *MULTIPLIED),
        *("--special", "7S=3,KC=2,3H=5,2D=2,AS=8"),
    ],
    "play-natural": ["play", "9S", "8H", "KD", "QC", "--paytable", "ez-baccarat"],
    "play-dragon-tiger": ["play", "5H", "5S", "--paytable", "dragon-tiger"],
    "play-three-card-baccarat": [
        *("play", "KS", "QH", "JD", "9C", "5H", "5D", "--paytable", "three-card-baccarat"),
    ],
    "play-lucky-draw-best": [
        *("play", "3S", "9H", "2D", "4C", "6H", "--paytable", "lucky-draw-baccarat-1"),
    ],
    "play-lucky-draw-action": [
        *("play", "3S", "9H", "2D", "4C", "4D", "6H", "--paytable", "lucky-draw-baccarat-2"),
        *("--action", "draw"),
    ],
    "play-peek-best": [
        *("play", "4S", "3H", "2D", "2C", "8H", "--paytable", "peek-baccarat"),
        *("--unknowns", PEEK, "--shown", "1,3"),
    ],
    "play-peek-action": [
        *("play", "4S", "3H", "2D", "2C", "8H", "--paytable", "peek-baccarat"),
        *("--unknowns", PEEK, "--shown", "banker_card1", "--action", "double"),
    ],
    "verify": ["verify", "seed-game"],
    "verify-shoe": ["verify", "seed-game", "--remove", "5H 5H KS"],
    "verify-decks": ["verify", "ez-baccarat", "--decks", "6"],
    "certify": [
        *("certify", str(GOLDEN.parent / "seeds" / "000_78b99584248e87c5.txt")),
        *("--paytable", "seed-game"),
    ],
    "certify-truncate": [
        *("certify", str(GOLDEN.parent / "seeds" / "003_e9fe957e965a18c5.txt")),
        *("--paytable", "seed-game-ms", "--rounding", "truncate"),
    ],
    "fit": ["fit", "prosperity-tree-baccarat"],
    "eor": ["eor", "--decks", "1", "--bet", "tie", "--bet", "banker"],
    "eor-by-card-one-mode": [
        "eor",
        "--decks",
        "1",
        "--bet",
        "tie",
        "--by-card",
        "--mode",
        "commission",
    ],
    "simulate": ["simulate", "--shoes", "2", "--seed", "1", *RUN],
    "simulate-multiplied": ["simulate", "--shoes", "2", *MULTIPLIED, *RUN],
    "simulate-lucky-draw": [
        *("simulate", "--shoes", "2", "--paytable", "lucky-draw-baccarat-1", "--decks", "1"),
        *RUN,
    ],
    "simulate-peek": [
        *("simulate", "--shoes", "2", "--paytable", "peek-baccarat", "--decks", "1"),
        *("--unknowns", PEEK, *RUN),
    ],
    "count-one-bet": ["count", "--bet", "lucky_six", "--shoes", "2", "--perfect", *RUN],
    "count-bets": ["count", "--bet", "tie", "--bet", "lucky_six", "--shoes", "2", *RUN],
    "count-every-mode": [
        *("count", "--bet", "banker", "--mode", "all", "--shoes", "2", "--no-max-round"),
        *RUN,
    ],
    "solve": ["solve", "--decks", "6"],
    "solve-infinite-paytable": ["solve", "--paytable", "seed-game", "--decks", "inf"],
    "strategy": ["strategy", "--decks", "1"],
    "strategy-one-bet-removed": [
        *("strategy", "--paytable", "lucky-draw-baccarat-2", "--bet", "enter"),
        *("--mode", "standard", "--remove", "9H 9 KS"),
    ],
    "strategy-infinite": ["strategy", "--decks", "inf"],
    "audit": ["audit", AUDIT_LOG],
    "audit-no-fit": ["audit", AUDIT_LOG, "--no-fit", "--decks", "6"],
    "audit-shuffle-tests": ["audit", AUDIT_LOG, "--no-fit", "--shuffle-tests"],
    "audit-dragon-tiger": ["audit", DRAGON_LOG, "--paytable", "dragon-tiger"],
    "audit-lucky-draw": ["audit", LUCKY_LOG, "--paytable", "lucky-draw-baccarat-1"],
    "dealt": ["dealt", "--bet", "tie", "--bet", "perfect_pair", "--shoes", "2", *RUN],
    "dealt-exact": [
        *("dealt", "--exact", "--shoe", str(GOLDEN.parent / "tiny-shoe.csv")),
        *("--cut-card", "6", "--bet", "tie", "--bet", "banker", "--mode", "all"),
    ],
    "cache-list": ["cache", "list"],
    "cache-dir": ["cache", "dir"],
}


def _json(capsys, argv: list[str]) -> dict:
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code in (0, 1), err
    return json.loads(out)


def _validate(document: dict, command: str) -> None:
    schema = schema_of(command)
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(document)


@pytest.mark.parametrize("name", list(CASES))
def test_every_commands_json_follows_its_contract(capsys, name) -> None:
    argv = CASES[name]
    command = argv[0]
    document = _json(capsys, argv)
    _validate(document, command)
    contract = CONTRACTS[command]
    assert list(document)[:6] == ["schema", "tool", "paytable", "shoe", "options", contract.rows]
    assert document["schema"] == {"name": f"baccarat-odds/{command}", "version": contract.version}
    assert document["tool"] == {"name": "baccarat-odds", "version": package_version()}
    assert isinstance(document[contract.rows], list)


def test_the_envelope_says_which_paytable_file_and_shoe(capsys, tmp_path) -> None:
    document = _json(capsys, CASES["report-detail-removed"])
    assert document["paytable"]["id"] == "seed-game"
    assert len(document["paytable"]["sha256"]) == 64
    assert document["shoe"]["decks"] == 8 and document["shoe"]["cards"] == 413
    assert document["shoe"]["removed"] == ["5H", "5", "KS"]
    assert document["shoe"]["ranks"]["5"] == 30 and document["shoe"]["ranks"]["K"] == 31
    assert document["options"]["bets"] == ["tie"] and document["options"]["detail"] is True
    # A paytable file: its stem, and the sha256 of its bytes.
    from analyzer.files import shipped_folder

    source = shipped_folder("analyzer.paytables", "shipped") / "paytables" / "ez-baccarat.toml"
    mine = tmp_path / "my-game.toml"
    mine.write_bytes(source.read_bytes() + b"\n# edited\n")
    import hashlib

    mine_json = _json(capsys, ["report", "--paytable", str(mine), "--bet", "tie"])
    assert mine_json["paytable"]["id"] == "my-game"
    assert mine_json["paytable"]["sha256"] == hashlib.sha256(mine.read_bytes()).hexdigest()
    _validate(mine_json, "report")
    infinite = _json(capsys, CASES["report-infinite"])
    assert infinite["shoe"] == {"decks": "inf", "cards": None, "removed": [], "ranks": None}


def test_a_jackpot_fills_its_columns(capsys, tmp_path) -> None:
    path = tmp_path / "progressive.toml"
    path.write_text(
        'name = "Progressive"\n[[bet]]\nid = "progressive"\n'
        'jackpot = { meter = "10000", contribution = "0.01" }\n'
        'rule = [{ when = "player_suited_pair and banker_suited_pair", pays = "jackpot" },\n'
        '        { when = "player_pair", pays = "2:1" }]\n',
        encoding="utf-8",
    )
    document = _json(capsys, ["report", "--paytable", str(path), "--jackpot", "20000"])
    _validate(document, "report")
    assert document["options"]["jackpot_meter"] == "20000/1"
    row = document["bets"][0]
    assert row["jackpot_meter"] == "20000/1" and row["jackpot_contribution"] == "1/100"


def test_a_shoe_file_has_no_decks(capsys, tmp_path) -> None:
    shoe = tmp_path / "shoe.csv"
    shoe.write_text(
        "rank,count\n" + "".join(f"{r},8\n" for r in ["A", *range(2, 11), "J", "Q", "K"])
    )
    document = _json(capsys, ["report", "--bet", "tie", "--shoe", str(shoe), "--remove", "5"])
    _validate(document, "report")
    assert document["shoe"]["decks"] is None and document["shoe"]["cards"] == 103


def test_rows_are_under_one_key_whatever_the_number_of_bets(capsys) -> None:
    one = _json(capsys, CASES["count-one-bet"])
    many = _json(capsys, CASES["count-bets"])
    assert [r["bet"] for r in one["bets"]] == ["lucky_six"]
    assert [r["bet"] for r in many["bets"]] == ["tie", "lucky_six"]
    assert list(one["bets"][0]) == list(many["bets"][0])


#: A case of each command (the first of CASES).
FIRST = {argv[0]: name for name, argv in reversed(CASES.items())}


@pytest.mark.parametrize("command", list(CONTRACTS))
def test_a_wrong_document_fails_its_schema(capsys, command) -> None:
    contract = CONTRACTS[command]
    validator = jsonschema.Draft202012Validator(schema_of(command))
    good = _json(capsys, CASES[FIRST[command]])
    assert validator.is_valid(good)
    wrong = [
        {k: v for k, v in good.items() if k != contract.rows},  # the rows missing
        {**good, "renamed": good[contract.rows]},  # a key it does not have
        {**good, "schema": {"name": contract.name, "version": contract.version + 1}},
        {**good, "tool": {"name": "baccarat-odds"}},
        {**good, "options": {**good["options"], "unknown_option": 1}},
        {**good, contract.rows: [{"bet": 1}]},  # a row missing its keys
        {**good, "paytable": {"id": "x", "name": "x", "sha256": "not hex"}},
    ]
    for document in wrong:
        assert not validator.is_valid(document)
    if good[contract.rows]:  # a row with a key renamed
        row = dict(good[contract.rows][0])
        key = next(iter(row))
        row[key.upper()] = row.pop(key)
        assert not validator.is_valid({**good, contract.rows: [row]})


@pytest.mark.parametrize("name", ["simulate", "count-one-bet"])
def test_a_runs_warnings_follow_the_schema(capsys, name) -> None:
    """Two shoes warn of the rounds (few or none); warnings of another shape fail."""
    command = CASES[name][0]
    document = _json(capsys, CASES[name])
    _validate(document, command)
    assert list(document)[-1] == "warnings" and document["warnings"]
    warning = document["warnings"][0]
    wrong = [
        {k: v for k, v in document.items() if k != "warnings"},  # always there
        {**document, "warnings": [{**warning, "kind": "too_few"}]},
        {**document, "warnings": [{k: v for k, v in warning.items() if k != "message"}]},
        {**document, "warnings": [{**warning, "message": "two\nlines"}]},
        {**document, "warnings": [{**warning, "bets": [{"bet": "tie", "rounds": 1}]}]},
        {**document, "warnings": [{**warning, "bets": []}]},
    ]
    for bad in wrong:
        with pytest.raises(jsonschema.ValidationError):
            _validate(bad, command)


def test_a_renamed_row_key_fails(capsys) -> None:
    document = _json(capsys, CASES["report-one-bet-one-mode"])
    _validate(document, "report")
    wrong = copy.deepcopy(document)
    wrong["bets"][0]["houseedge"] = wrong["bets"][0].pop("house_edge")
    with pytest.raises(jsonschema.ValidationError):
        _validate(wrong, "report")
    wrong = copy.deepcopy(document)
    wrong["shoe"]["decks"] = "8 decks"
    with pytest.raises(jsonschema.ValidationError):
        _validate(wrong, "report")


def test_every_contract_ships_its_schema() -> None:
    files = {path.name for path in SCHEMA_FOLDER.glob("*.schema.json")}
    assert files == {f"{command}.schema.json" for command in CONTRACTS}
    for command, contract in CONTRACTS.items():
        properties = schema_of(command)["properties"]
        assert properties["schema"]["properties"]["version"] == {"const": contract.version}
        assert contract.rows in schema_of(command)["required"]


def test_the_reference_table_gives_every_contracts_version() -> None:
    """The JSON reference's table of contracts (what users read) gives each command's
    schema name, version and rows key as :data:`CONTRACTS` has them."""
    import re

    page = Path(__file__).resolve().parents[2] / "docs" / "reference" / "json-outputs.md"
    found = {
        command: (int(version), rows)
        for command, name, version, rows in re.findall(
            r"^\| `(\w+)`[^|]*\| `baccarat-odds/(\w+)` \| (\d+) \| `(\w+)` \|$",
            page.read_text(encoding="utf-8"),
            re.MULTILINE,
        )
        if command == name
    }
    assert found == {c: (contract.version, contract.rows) for c, contract in CONTRACTS.items()}


# -- CSV: the JSON rows' columns, typed as pandas reads them -------------------------------------


@pytest.mark.parametrize(
    ("argv", "rows"),
    [
        (["report"], "bets"),
        (["report", "--paytable", "majestic-match", "--decks", "1"], "bets"),
        (["eor", "--decks", "1", "--bet", "tie"], "effects"),
        (["verify", "seed-game"], "claims"),
        (CASES["count-bets"], "bets"),
        (["audit", AUDIT_LOG, "--no-fit"], "findings"),
        (["strategy", "--decks", "1"], "sets"),
    ],
)
def test_csv_has_the_json_rows_columns(capsys, argv, rows) -> None:
    import pandas as pd

    document = _json(capsys, argv)
    code, out, err = run(capsys, *argv, "--format", "csv")
    assert code in (0, 1), err
    first = out.split("\n\n")[0]
    frame = pd.read_csv(
        io.StringIO(first), dtype_backend="numpy_nullable", keep_default_na=False, na_values=[""]
    )
    assert list(frame.columns) == list(document[rows][0])
    assert len(frame) == len(document[rows])
    for column in frame.columns:
        values = [row[column] for row in document[rows]]
        if all(v is None or type(v) is int for v in values) and any(type(v) is int for v in values):
            # Whole numbers read as whole numbers (empty for none), never 50.0.
            assert str(frame[column].dtype) == "Int64", column
            assert [None if pd.isna(v) else int(v) for v in frame[column]] == values


def test_reports_csv_has_a_row_per_bet_and_mode(capsys) -> None:
    import pandas as pd

    code, out, _ = run(capsys, "report", "--format", "csv")
    frame = pd.read_csv(io.StringIO(out))
    document = _json(capsys, ["report"])
    assert code == 0 and len(frame) == len(document["bets"]) == 36
    assert set(frame["mode"]) == {"commission", "no_commission"}
    # max_round: whole numbers where there is one, as the nullable reader keeps them.
    typed = pd.read_csv(io.StringIO(out), dtype_backend="numpy_nullable")
    assert str(typed["max_round"].dtype) == "Int64"
    assert "50.0" not in out


def test_the_tools_name_is_the_distributions() -> None:
    from analyzer.reports.contract import TOOL
    from analyzer.version import DISTRIBUTION

    assert TOOL == DISTRIBUTION


def test_the_docs_tables_follow_the_report_contract() -> None:
    """The JSON files ``docs --out`` writes (data/tables/seed-game) are report outputs."""
    tables = Path(__file__).resolve().parents[2] / "data" / "tables" / "seed-game"
    files = sorted(tables.glob("*/*.json"))
    assert len(files) == 6
    for path in files:
        document = json.loads(path.read_text(encoding="utf-8"))
        _validate(document, "report")
        assert document["options"]["lang"] == path.parent.name
        assert ("lines" in document) == (path.stem == "detail")
