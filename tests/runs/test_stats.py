"""Ratios over dealt shoes and their standard errors (shoes are the independent units)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.runs.stats import Z_95, ratio_and_error


def test_a_ratio_of_sums_and_its_error_by_hand() -> None:
    # Ratio 6/6 = 1; residuals -1, 0, 1; error sqrt(2 / (3 * 2)) / (6 / 3).
    ratio, error = ratio_and_error(np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 2.0]))
    assert ratio == 1.0
    assert error == pytest.approx(math.sqrt(1 / 3) / 2, rel=1e-15)


def test_equal_denominators_give_the_standard_error_of_the_mean() -> None:
    values = np.array([0.5, -1.0, 2.0, 0.25, -0.75, 1.5])
    ratio, error = ratio_and_error(values, np.ones(len(values)))
    assert ratio == pytest.approx(values.mean(), rel=1e-15)
    assert error == pytest.approx(values.std(ddof=1) / math.sqrt(len(values)), rel=1e-12)


def test_a_constant_ratio_has_no_error_and_scaling_scales_it() -> None:
    denominators = np.array([3.0, 7.0, 1.0, 9.0])
    ratio, error = ratio_and_error(0.25 * denominators, denominators)
    assert (ratio, error) == (0.25, 0.0)
    numerators = np.array([1.0, 4.0, 0.0, 2.0])
    r1, e1 = ratio_and_error(numerators, denominators)
    r2, e2 = ratio_and_error(10 * numerators, denominators)
    assert (r2, e2) == pytest.approx((10 * r1, 10 * e1), rel=1e-14)


def test_too_few_units() -> None:
    ratio, error = ratio_and_error(np.array([3.0]), np.array([4.0]))
    assert ratio == 0.75 and math.isnan(error)  # one shoe: no spread to measure
    ratio, error = ratio_and_error(np.array([0.0, 0.0]), np.array([0.0, 0.0]))
    assert math.isnan(ratio) and math.isnan(error)  # nothing bet


def test_z_95_is_the_two_sided_normal_quantile() -> None:
    # P(|Z| <= z) = erf(z / sqrt 2) = 0.95
    assert math.erf(Z_95 / math.sqrt(2)) == pytest.approx(0.95, abs=1e-15)


def test_one_unit_with_a_denominator_has_no_error() -> None:
    """Bets placed in one shoe of many: the edge is known, its error is not (not 0)."""
    numerators = np.array([0.0, 0.0, 3.0, 0.0])
    denominators = np.array([0.0, 0.0, 2.0, 0.0])
    ratio, error = ratio_and_error(numerators, denominators)
    assert ratio == 1.5 and np.isnan(error)
    ratio, error = ratio_and_error(np.array([0.0, 3.0, 1.0]), np.array([0.0, 2.0, 2.0]))
    assert ratio == 1.0 and error > 0
