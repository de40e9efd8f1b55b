"""The one exception type that user-facing code raises for bad input.

The CLI turns an :class:`AnalyzerError` into a single line on stderr and exit status 2;
anything else escaping is a bug and keeps its traceback.
"""


class AnalyzerError(ValueError):
    """Bad input from the user: a card, a shoe, an option, a paytable or a claims file."""


def check_keys(data, known, where: str) -> None:
    """Refuse a key of an untrusted table that is not in ``known``, naming the ones allowed."""
    for key in data:
        if key not in known:
            raise AnalyzerError(f"{where}: unknown key {key!r} (keys: {', '.join(sorted(known))})")
