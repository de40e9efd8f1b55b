"""The cards left as each round of dealt shoes starts, and the windows max rounds cut a
shoe into (:mod:`analyzer.runs.dealt_rounds`), against plain Python; and a sampled
partition equal to pricing each round on its own and summing (the way it was priced
before the sums were taken window by window)."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.engine.batch import dealt_expected_values
from analyzer.paytables.library import as_paytable
from analyzer.runs.as_dealt import DealRule, DealtJob, _starts, dealt_partition
from analyzer.runs.dealer import Drawing, deal_rows
from analyzer.runs.dealt_rounds import round_compositions, round_windows
from analyzer.runs.runner import partition_rng


@pytest.mark.kernels
@pytest.mark.parametrize("per_card", [True, False])
def test_compositions_are_the_cards_not_yet_dealt(per_card) -> None:
    rng = np.random.default_rng(1)
    cards = np.array([rng.permutation(np.repeat(np.arange(52), 2)) for _ in range(3)])
    types = np.arange(52) if per_card else np.arange(52) // 4
    full = np.bincount(types[np.arange(52)], minlength=types.max() + 1) * 2
    starts = np.array([[0, 5, 11, 40], [3, 9, 20, 0], [1, 7, 13, 19]])
    n_rounds = np.array([4, 3, 0])
    got = round_compositions(cards, types, starts, n_rounds, full)
    for s in range(3):
        for j in range(4):
            if j < n_rounds[s]:
                gone = np.bincount(types[cards[s, : starts[s, j]]], minlength=len(full))
                assert (got[s, j] == full - gone).all()
            else:
                assert (got[s, j] == 0).all()


@pytest.mark.kernels
@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"starts": np.array([[0, 200]])}, "outside its shoe"),
        ({"n_rounds": np.array([3])}, "n_rounds must be 0 to 2"),
        ({"type_of_card": np.arange(13)}, "type to each of the 52"),
        ({"counts": np.zeros(10, dtype=np.int64)}, "types run 0 to 9"),
        ({"starts": np.array([0, 4])}, "do not fit"),
    ],
)
def test_compositions_refuse_what_does_not_fit(args, message) -> None:
    given = {
        "cards": np.arange(52)[None, :],
        "type_of_card": np.arange(52) // 4,
        "starts": np.array([[0, 4]]),
        "n_rounds": np.array([2]),
        "counts": np.full(13, 4, dtype=np.int64),
    } | args
    with pytest.raises(ValueError, match=message):
        round_compositions(**given)


@pytest.mark.kernels
def test_windows_by_max_round() -> None:
    window, last = round_windows([40, None, 50, 60, 40], 70)
    assert last == [0, None, 1, 2, 0]
    for j, w in enumerate(window):
        number = j + 1  # round j is the shoe's (j + 1)-th
        assert w == sum(m < number for m in (40, 50, 60))
    # Round j is offered to a bet capped at m exactly when its window is at most m's.
    for m, upto in ((40, 0), (50, 1), (60, 2)):
        assert ((np.arange(1, 71) <= m) == (window <= upto)).all()
    window, last = round_windows([None, None], 5)
    assert window.tolist() == [0] * 5 and last == [None, None]


def _priced_round_by_round(job: DealtJob, index: int, shoes: int) -> dict:
    """A partition as it was priced before: each round's EVs by the batch engine, summed
    per shoe (the same shoes: the same random numbers, drawn the same way)."""
    rng = partition_rng(job.seed, index)
    paytable = job.paytable
    drawing = Drawing.of(paytable.rules, paytable.strategy)
    types = np.arange(52) if job.per_card else np.arange(52) // 4
    base = np.repeat(np.arange(52), job.counts) if job.per_card else None
    if base is None:
        base = np.repeat(np.arange(13) * 4, job.counts)
    size = len(base)
    cards = np.tile(base, (shoes, 1))
    for i in range(shoes):
        rng.shuffle(cards[i])
    uniforms = np.zeros((shoes, size // 4 + 1, 2))
    starts = _starts(job, cards[:, 0])
    table, n_rounds = deal_rows(
        cards, starts, size - job.rule.cut_card, job.rule.last_round, drawing, uniforms
    )
    counts = np.asarray(job.counts)
    limit_ev = np.zeros((shoes, job.n_columns))
    all_ev = np.zeros((shoes, job.n_columns))
    caps = np.array([10**9 if m is None else m for m in job.max_rounds])
    for s in range(shoes):
        n = int(n_rounds[s])
        left = np.array(
            [counts - np.bincount(types[cards[s, :start]], minlength=len(counts))
             for start in table[s, :n, 1]]
        )  # fmt: skip
        ev = dealt_expected_values(job.bets, left, paytable.rules, paytable.strategy)
        offered = table[s, :n, 0][:, None] <= caps
        all_ev[s] = ev.sum(axis=0)
        limit_ev[s] = np.where(offered, ev, 0).sum(axis=0)
    return {"rounds": n_rounds, "limit_ev": limit_ev, "all_ev": all_ev}


@pytest.mark.parametrize(
    ("counts", "rule"),
    [((1,) * 52, DealRule(8, "by-value")), ((2,) * 13 + (0,) * 0, DealRule(4, "none", "one-more"))],
)
def test_a_partition_equals_its_rounds_priced_one_by_one(counts, rule) -> None:
    seed = as_paytable("seed-game")
    columns = tuple((bet.id, mode) for bet, mode in seed.offered(seed.modes))
    if len(counts) == 13:
        columns = tuple(c for c in columns if c[0] != "perfect_pair")
    caps = tuple(3 if i % 3 == 0 else None if i % 3 == 1 else 5 for i in range(len(columns)))
    job = DealtJob(seed, columns, counts, rule, 11, caps)
    got = dealt_partition(job, 4, 12)
    want = _priced_round_by_round(job, 4, 12)
    np.testing.assert_array_equal(got["rounds"], want["rounds"])
    for key in ("limit_ev", "all_ev"):
        np.testing.assert_allclose(got[key], want[key], rtol=1e-12, atol=1e-12)
