"""Whether the Numba kernels of the exact walk are compiled already, and a line saying
so on the progress stream when the first walk of a process has to compile them."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from typing import Any

from analyzer.progress import note, slow_step

_prepared = False


def kernels_cached(kernels: Iterable[Any]) -> bool:
    """Whether every one of ``kernels`` (Numba dispatchers, ``@njit(cache=True)``) is
    compiled in this process or found in Numba's on-disk cache for its present source
    (an unknown: yes; a kernel inlined into its callers is compiled with them).

    Returns
    -------
    bool
        False where compiling lies ahead (a minute or so).
    """
    for kernel in kernels:
        if not hasattr(kernel, "signatures"):  # a plain function: the JIT is off, no compiling
            continue
        if kernel.signatures or kernel.targetoptions.get("inline") == "always":
            continue
        try:
            # The index of the kernel's cache file: empty where it is missing, or made
            # for another source or Numba version.
            if not kernel._cache._cache_file._load_index():
                return False
        except Exception:  # (Numba's private layout changed: say nothing)
            continue
    return True


def walk_prepared() -> bool:
    """Has a walk of this process been prepared already (:func:`preparing_walk`)?"""
    return _prepared


@contextlib.contextmanager
def preparing_walk(kernels: Iterable[Any]) -> Iterator[None]:
    """Around the first exact walk of a process, which calls ``kernels``: says, where
    progress is shown, that they are being compiled (not all in Numba's cache), or,
    where the walk still runs after two seconds, that it is being prepared."""
    global _prepared
    if _prepared:
        yield
        return
    _prepared = True
    if not kernels_cached(kernels):
        note("compiling the exact walk (first run only, about a minute) ...")
        yield
        return
    with slow_step("preparing the exact walk ..."):
        yield
