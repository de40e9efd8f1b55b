"""Whether the exact walk's kernels are compiled or cached already."""

from __future__ import annotations


def test_kernels_cached_knows_an_inlined_kernel_needs_no_cache() -> None:
    from analyzer.engine import enumerator
    from analyzer.engine.compiling import kernels_cached

    enumerator.count_outcomes(enumerator.Shoe.standard(1))  # compiled (or loaded) here
    assert kernels_cached((enumerator._walk_jit, enumerator._interchangeable_jit))


def test_with_the_jit_off_the_kernels_are_plain_functions_with_nothing_to_compile() -> None:
    """NUMBA_DISABLE_JIT=1 (CI's coverage of the kernels' lines) makes every kernel a plain
    function: nothing lies ahead to compile (it once failed on `.signatures`)."""
    from analyzer.engine.compiling import kernels_cached

    def plain(x):
        return x

    assert kernels_cached((plain,))
