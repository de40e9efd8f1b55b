"""Tests of analyzer.runs, one module per module."""
