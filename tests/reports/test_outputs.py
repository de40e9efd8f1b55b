"""The documents of the runs and of fit and solve (:mod:`analyzer.reports.outputs`): made
once, for the command and the Python API alike, each under its contract."""

from __future__ import annotations

import json

import jsonschema

import analyzer
from analyzer.analysis.solve import solve_game
from analyzer.game.rules import named_rules
from analyzer.paytables.library import load_paytable
from analyzer.reports.contract import schema_of
from analyzer.reports.formats import json_text
from analyzer.reports.outputs import count_table, run_options, solution_data
from analyzer.runs.count_plan import COUNT_COLUMNS
from analyzer.runs.jobs import run_procedure


def _valid(document: dict, command: str) -> dict:
    read = json.loads(json_text(document))
    jsonschema.Draft202012Validator(schema_of(command)).validate(read)
    return read


def test_a_runs_options_are_what_changes_its_figures() -> None:
    paytable = load_paytable("ez-baccarat")
    procedure = run_procedure(paytable, 10, 5, 6, 20, "one-more")
    options = run_options(paytable, procedure, 10, 3, 5)
    assert options["shoes"] == 10 and options["seed"] == 3 and options["partition_size"] == 5
    assert (options["cut_card"], options["last_round"]) == (20, "one-more")
    assert options["drawing_rules"] == "standard" and options["fee"] is None


def test_the_apis_documents_follow_their_contracts() -> None:
    simulation = analyzer.simulate(shoes=2, seed=1)
    read = _valid(simulation.to_dict(), "simulate")
    assert read["rounds"] == simulation.rounds and read["options"]["seed"] == 1
    # Two shoes: side bets settled on few rounds, warned of in the result and its JSON.
    assert read["warnings"] == simulation.warnings
    assert [w["kind"] for w in simulation.warnings] == ["few_rounds"]
    study = analyzer.count(shoes=2, bets="lucky_six", perfect=True)
    read = _valid(study.to_dict(), "count")
    assert [row["bet"] for row in read["bets"]] == ["lucky_six"]
    assert read["warnings"] == study.warnings
    assert [w["kind"] for w in study.warnings] == ["no_rounds"]  # never bet on two shoes
    assert read["bets"][0]["advice_count_max_gain"] is None  # perfect play only
    allowed = analyzer.fit("prosperity-tree-baccarat")
    read = _valid(allowed.to_dict(), "fit")
    assert read["together"]["consistent"] and read["paytable"]["id"] == "prosperity-tree-baccarat"


def test_a_counts_table_has_every_column_whatever_was_counted() -> None:
    study = analyzer.count(shoes=2, bets="lucky_six", perfect=True)
    table = count_table(study.records)
    assert [column.tool_name for column in table.columns] == list(COUNT_COLUMNS)


def test_a_solution_is_a_row_per_cell() -> None:
    solution = solve_game(named_rules("chemin-de-fer"), None)
    read = _valid(solution_data(solution, "rule set chemin-de-fer", None), "solve")
    cells = {row["cell"]: row for row in read["cells"]}
    assert cells["player:5"]["draw"] == "9/11" and cells["player:5"]["third_card"] is None
    assert read["mixed"] == ["player:5", "banker:6/stood"]
    assert read["paytable"] is None and read["shoe"]["decks"] == "inf"
