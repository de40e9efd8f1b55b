"""Statistics over dealt shoes: shoes are the independent units, rounds of one shoe are not."""

from __future__ import annotations

import numpy as np

#: The two-sided 95% quantile of the normal distribution.
Z_95 = 1.959963984540054


def ratio_and_error(numerators: np.ndarray, denominators: np.ndarray) -> tuple[float, float]:
    """Ratio of sums and its standard error over independent units (shoes).

    The error is NaN (unknown) unless at least two units have a denominator: from one
    (one shoe in which bets were placed, say) the ratio has no spread to judge by, and the
    formula would give 0.
    """
    total = denominators.sum()
    if total == 0:
        return float("nan"), float("nan")
    ratio = numerators.sum() / total
    n = len(numerators)
    if n < 2 or np.count_nonzero(denominators) < 2:
        return float(ratio), float("nan")
    residual = numerators - ratio * denominators
    error = np.sqrt((residual**2).sum() / (n * (n - 1))) / (total / n)
    return float(ratio), float(error)
