"""Exact analysis of paytables: every bet on a shoe, effects of removal, verification of
published claims."""
