"""The bounded table of recently used work, and the patterns compiled when first used."""

from __future__ import annotations

import threading

from analyzer.memo import Kept


def test_the_least_recently_used_entry_goes_first() -> None:
    kept: Kept[str] = Kept(2)
    kept.put("a", "A")
    kept.put("b", "B")
    assert kept.get("a") == "A"  # a is now the most recent
    kept.put("c", "C")
    assert kept.get("b") is None and kept.values() == ["A", "C"]
    kept.put("a", "A2")  # put again: replaced, and the most recent
    assert kept.values() == ["C", "A2"] and len(kept) == 2
    kept.clear()
    assert len(kept) == 0 and kept.get("a") is None


def test_threads_sharing_it_never_see_it_broken() -> None:
    """Eight threads getting and putting 2,000 keys each through a table of 16: every get
    finds its own value or nothing, and the bound holds throughout."""
    kept: Kept[tuple[int, int]] = Kept(16)
    errors: list[BaseException] = []

    def work(thread: int) -> None:
        try:
            for i in range(2000):
                key = (thread, i % 40)
                found = kept.get(key)
                assert found is None or found == (thread, i % 40)
                kept.put(key, key)
                assert len(kept) <= 16
        except BaseException as error:  # reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and len(kept) == 16


def test_a_pattern_is_compiled_when_first_used_and_answers_as_re_does() -> None:
    import re

    from analyzer.memo import Pattern

    text = r"(\d+)-(?P<tail>[a-z]*)"
    lazy, compiled = Pattern(text, re.I), re.compile(text, re.I)
    assert "match" not in vars(lazy)  # nothing compiled yet
    for probe in ("12-AB", "x12-ab", "12-", "", "7-q 8-r"):
        for method in ("match", "fullmatch", "search"):
            ours, theirs = getattr(lazy, method)(probe), getattr(compiled, method)(probe)
            assert (ours and (ours.span(), ours.groups())) == (
                theirs and (theirs.span(), theirs.groups())
            )
        assert lazy.sub("#", probe) == compiled.sub("#", probe)
        assert lazy.split(probe) == compiled.split(probe)
    assert "match" in vars(lazy)  # the compiled pattern's own method, from then on
    assert lazy.groupindex == compiled.groupindex and lazy.pattern == text
    assert lazy.match("5-x", 1) is None and lazy.match("a5-x", 1).group(1) == "5"
