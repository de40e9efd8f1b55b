"""Counts under a mixed strategy: the weighted sum of the counts of pure tableaus.

Every figure is linear in the counts, and the counts under a mixed strategy are an exact
weighted sum of those of a few pure tableaus (:meth:`analyzer.game.rules.DrawingRules.
mixture`). Scaled by the least common denominator of the weights, the sum is again an
integer count of every cell, over that denominator times the shoe's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

#: Counts over a denominator below this stay int64 (no sum of them can overflow it).
_INT64_SAFE = 2**62


def mixed_counts(
    parts: Sequence[tuple[Fraction, np.ndarray]], denominator: int
) -> tuple[np.ndarray, int, int]:
    """``sum(weight * counts)`` over ``parts`` as integers, its denominator
    (``denominator`` times the weights' least common denominator), and that scale. A
    single part of weight 1 comes back as it is; a sum too large for int64 comes back as
    Python integers."""
    if len(parts) == 1 and parts[0][0] == 1:
        return parts[0][1], denominator, 1
    scale = math.lcm(*(w.denominator for w, _ in parts))
    factors = [int(weight * scale) for weight, _ in parts]
    # Every count is at most the denominator: where no partial sum can leave int64 the
    # sum is taken there (a few times faster), else in Python integers.
    exact_in_int64 = sum(map(abs, factors)) * denominator < _INT64_SAFE
    total = np.zeros(parts[0][1].shape, dtype=np.int64 if exact_in_int64 else object)
    for factor, (_, counts) in zip(factors, parts, strict=True):
        total += factor * (counts if exact_in_int64 else counts.astype(object))
    # The mixed counts are those of a distribution: none negative, summing to the
    # denominator, so every sum of them fits where the denominator does.
    if denominator * scale < _INT64_SAFE:
        total = total.astype(np.int64)
    return total, denominator * scale, scale
