"""Shoes dealt for real: dealing, the Monte Carlo check, counting, and resumable partitioned
runs."""
