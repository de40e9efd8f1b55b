"""The Python API's front: what a notebook calls, one function per task.

Each function takes what a user has at hand (a shipped paytable's name, a path, or a
:class:`~analyzer.paytables.model.Paytable`), checks it once, calls the layers below and
returns a documented result object (:mod:`analyzer.api.results`) that shows itself as a
table in a notebook and gives the same figures the command line prints. The package's
front door (:mod:`analyzer`) re-exports these names.
"""
