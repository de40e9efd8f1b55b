"""Whether the exact walk's kernels are compiled or cached already."""

from __future__ import annotations


def test_kernels_cached_knows_an_inlined_kernel_needs_no_cache() -> None:
    from analyzer.engine import enumerator
    from analyzer.engine.compiling import kernels_cached

    enumerator.count_outcomes(enumerator.Shoe.standard(1))  # compiled (or loaded) here
    assert kernels_cached((enumerator._walk_jit, enumerator._interchangeable_jit))
