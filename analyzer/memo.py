"""What a process keeps of work it may be asked for again: a bounded table of the most
recently used entries, safe to share between threads (a Dask worker may run partitions
in threads of one process, each analysing); and a regular expression compiled when first
used (:class:`Pattern`)."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Hashable
from functools import cached_property
from typing import Any, Generic, TypeVar

Value = TypeVar("Value")


class Kept(Generic[Value]):
    """At most ``most`` entries; the one least recently used is dropped first."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._entries: OrderedDict[Hashable, Value] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Value | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: Hashable, value: Value) -> Value:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.most:
                self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def values(self) -> list[Value]:
        """The entries, least recently used first."""
        with self._lock:
            return list(self._entries.values())


class once(cached_property):
    """A :func:`functools.cached_property` without its lock: Python 3.11's takes a lock
    on every first read, which cost an analysis a tenth of its time (a figure read of
    each of 36 results). Two threads reading at once may both work the value out; both
    get the same value (what is cached is a pure function of the immutable instance)."""

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        value = instance.__dict__[self.attrname] = self.func(instance)
        return value


class Pattern:
    """A regular expression of a module, compiled when first used: a command's start
    compiles only the patterns its work uses (the package's took a report's start some
    1.5 ms, most of them never used). ``match``, ``fullmatch`` and the rest are the
    compiled pattern's own once it is made."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def __getattr__(self, name: str) -> Any:  # (only until the pattern is compiled)
        compiled = re.compile(self.pattern, self.flags)
        for method in ("match", "fullmatch", "search", "sub", "subn", "split", "finditer"):
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"Pattern({self.pattern!r}, {self.flags!r})"
