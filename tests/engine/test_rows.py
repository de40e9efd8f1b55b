"""Distinct rows of integer codes: exactly what ``np.unique(axis=0)`` finds, packed or not."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from analyzer.engine.rows import unique_rows


def expected(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    distinct, first, inverse = np.unique(codes, axis=0, return_index=True, return_inverse=True)
    return distinct, first, inverse.reshape(-1)


def check(codes: np.ndarray) -> None:
    got = unique_rows(codes)
    want = expected(codes)
    for ours, theirs in zip(got, want, strict=True):
        assert np.array_equal(ours, theirs)
    assert got[2].shape == (len(codes),)


@settings(max_examples=150, deadline=None)
@given(
    hnp.arrays(
        dtype=st.sampled_from([np.int32, np.int64]),
        shape=hnp.array_shapes(min_dims=2, max_dims=2, min_side=0, max_side=40),
        elements=st.integers(0, 6),
    )
)
def test_small_codes_packed_are_the_rows_numpy_finds(codes) -> None:
    check(codes)


@settings(max_examples=60, deadline=None)
@given(
    hnp.arrays(
        dtype=np.int64,
        shape=st.tuples(st.integers(1, 30), st.integers(1, 4)),
        elements=st.integers(-(2**40), 2**40),
    )
)
def test_wide_or_negative_codes_are_the_rows_numpy_finds(codes) -> None:
    check(codes)


def test_rows_past_what_int64_packs_are_found_as_rows() -> None:
    """70 columns of codes 0-2 (3**70 past 2**62), and a column of huge codes: the rows
    are sorted as numpy sorts them, not a packed code that wrapped."""
    rng = np.random.default_rng(7)
    check(rng.integers(0, 3, size=(200, 70)))
    check(np.array([[2**62, 0], [1, 1], [2**62, 0], [0, 5]], dtype=np.int64))
