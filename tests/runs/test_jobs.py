"""What runs of shoes share: partitions, their bounds, and the checks before any work."""

from __future__ import annotations

import pytest

from analyzer import AnalyzerError, load_paytable
from analyzer.runs.jobs import (
    MAX_PARTITION_BYTES,
    MAX_PARTITIONS,
    check_partition_memory,
    partition_sizes,
    run_procedure,
)


@pytest.mark.parametrize(
    ("shoes", "size", "sizes"),
    [(7, 3, [3, 3, 1]), (6, 3, [3, 3]), (2, 250, [2]), (1, 1, [1])],
)
def test_partitions_are_full_but_the_last(shoes, size, sizes) -> None:
    assert partition_sizes(shoes, size) == sizes


def test_the_procedure_is_the_paytables_unless_told() -> None:
    seed = load_paytable("seed-game")
    procedure = run_procedure(seed, 10, 5)
    assert (procedure.decks, procedure.cut_card, procedure.last_round) == (8, 14, "cut-card")
    other = run_procedure(seed, 10, 5, 6, 20, "one-more")
    assert (other.decks, other.cut_card, other.last_round) == (6, 20, "one-more")


def test_too_many_partitions_is_one_line() -> None:
    with pytest.raises(AnalyzerError, match="raise --partition-size"):
        run_procedure(load_paytable("seed-game"), MAX_PARTITIONS + 1, 1)


class _Job:
    n_columns = 3

    def partition_bytes(self, shoes: int) -> int:
        return shoes * 2**20


def test_a_partition_over_the_memory_bound_is_refused_naming_what_fits() -> None:
    check_partition_memory([1024], _Job())  # exactly the bound
    with pytest.raises(
        AnalyzerError, match=f"lower --partition-size to {MAX_PARTITION_BYTES >> 20:,}"
    ):
        check_partition_memory([10, 1025], _Job())
