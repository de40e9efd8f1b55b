"""Tests of analyzer.engine.card_walk, one module per module."""
