"""Tests of analyzer.paytables, one module per module."""
