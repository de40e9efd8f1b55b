"""The one exception type that user-facing code raises for bad input.

The CLI turns an :class:`AnalyzerError` into a single line on stderr and exit status 2;
anything else escaping is a bug and keeps its traceback.
"""


class AnalyzerError(ValueError):
    """Bad input from the user: a card, a shoe, an option, a paytable or a claims file."""
