"""Sphinx configuration of the baccarat-odds documentation site.

Build it with ``sphinx-build -W --keep-going -n -b html docs docs/_build/html`` (warnings
are errors, every cross-reference must resolve). Pages are Markdown (MyST); the command
reference comes from the real parser (sphinx-argparse), the Python API from the
docstrings (autodoc and napoleon) of every name in ``analyzer.__all__``.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))  # the site's own extension (the API list)
sys.path.insert(0, str(DOCS.parent))  # the package, when it is not installed

project = "baccarat-odds"
author = "the baccarat-odds authors"
copyright = "2026, the baccarat-odds authors"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinxarg.ext",
    "analyzer_api",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext"]

# MyST: ```{directive} blocks, and anchors for headings down to level 3 so that
# [text](page.md#a-heading) links are checked.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# Autodoc and napoleon: numpy-style docstrings; signatures keep their type hints, and
# types are shown as written (the names of other libraries are not looked up).
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "undoc-members": False}
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
# Parameters and attributes as field lists, their types as written ("str, path or
# Paytable, default 'seed-game'" is prose for people, not a name to look up); an
# attribute listed in a class's docstring is not described a second time beside autodoc's.
napoleon_use_param = False
napoleon_use_ivar = True

# Nitpicky (-n): every reference must resolve, except to the types of Python's standard
# library and of the libraries the package builds on, whose inventories are not fetched
# (the build needs no network).
nitpick_ignore_regex = [
    (r"py:.*", r"(fractions|collections|typing|pathlib|os|numpy|np|pandas|pd|sympy)\..*"),
    (r"py:.*", r"(Fraction|Mapping|Sequence|Iterable|Iterator|Callable|Any|Path|Self)"),
    (r"py:.*", r"(int|str|float|bool|bytes|dict|list|tuple|set|frozenset|object|None)"),
    (r"py:.*", r"(DataFrame|Series|ndarray|ArrayLike|NDArray|Expr|Rational)"),
]

html_theme = "furo"
html_title = "baccarat-odds"
html_static_path: list[str] = []
