"""Tests of analyzer.game, one module per module."""
