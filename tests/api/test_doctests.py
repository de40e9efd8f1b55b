"""Every example in the docstrings of the public names runs, and gives what it shows: an
example cannot go stale. The API's own functions and result classes must each have one,
and name every parameter, what they return and what they raise."""

from __future__ import annotations

import doctest
import inspect
import sys

import pytest

import analyzer

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

#: The API's tasks: each documents every parameter, its result, its errors, and an example.
API_FUNCTIONS = (
    "as_paytable",
    "list_paytables",
    "list_claims",
    "list_rule_sets",
    "analyze",
    "removal_effects",
    "verify",
    "solve",
    "help_pages",
    "certify",
    "simulate",
    "count",
    "audit",
    "fit",
)
API_RESULTS = (
    "RemovalEffects",
    "Verification",
    "GameSolution",
    "Analysis",
    "Simulation",
    "CountStudy",
    "AuditReport",
    "FitResult",
    "Certification",
)


def _tests(name: str) -> list[doctest.DocTest]:
    value = getattr(analyzer, name)
    if not (inspect.isclass(value) or inspect.isroutine(value)):
        return []  # a constant (FIELDS): its docstring is its type's
    module = sys.modules[value.__module__]
    finder = doctest.DocTestFinder(exclude_empty=True)
    return [test for test in finder.find(value, name, module=module, globs={}) if test.examples]


@pytest.mark.parametrize("name", sorted(analyzer.__all__))
def test_the_examples_of_each_public_name_run(name) -> None:
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in _tests(name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"


@pytest.mark.parametrize("name", API_FUNCTIONS)
def test_each_api_function_is_documented_whole(name) -> None:
    function = getattr(analyzer, name)
    assert name in analyzer.__all__
    text = inspect.getdoc(function) or ""
    names = list(inspect.signature(function).parameters)
    for section in ("Parameters", "Returns", "Raises", "Examples")[0 if names else 1 :]:
        assert f"\n{section}\n{'-' * len(section)}\n" in text, f"{name}: no {section}"
    parameters = text.split("\nParameters\n")[-1].split("\nReturns\n")[0]
    # numpydoc's "name : type" lines, or "a, b : type" for parameters alike
    documented = {
        each.strip()
        for line in parameters.splitlines()
        if " : " in line and not line.startswith(" ")
        for each in line.split(" : ")[0].split(",")
    }
    for parameter in names:
        assert parameter in documented, f"{name}: {parameter} undocumented"
    assert _tests(name), f"{name}: no example"


@pytest.mark.parametrize("name", API_RESULTS)
def test_each_api_result_is_a_table_in_a_notebook(name) -> None:
    result = getattr(analyzer, name)
    assert name in analyzer.__all__ and inspect.getdoc(result)
    assert callable(getattr(result, "to_frame", None))
    assert callable(getattr(result, "_repr_html_", None))
    assert _tests(name), f"{name}: no example"


def test_a_failing_example_is_caught() -> None:
    """The runner above fails a test whose example prints something else."""

    def wrong() -> None:
        """>>> 1 + 1
        3
        """

    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in doctest.DocTestFinder().find(wrong, "wrong", globs={}):
        runner.run(test, out=lambda text: None)
    assert runner.summarize(verbose=False).failed == 1


def test_importing_the_package_loads_no_heavy_module() -> None:
    import subprocess

    code = (
        "import sys, analyzer; analyzer.__all__; "
        "print(sorted(m for m in ('pandas', 'numba', 'sympy', 'matplotlib') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
