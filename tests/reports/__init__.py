"""Tests of analyzer.reports, one module per module."""
