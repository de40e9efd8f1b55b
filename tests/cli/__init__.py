"""Tests of analyzer.cli, one module per module."""
