"""Tests of analyzer.analysis, one module per module."""
