"""Tests of analyzer.engine, one module per module."""
