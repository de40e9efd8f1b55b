"""The site's own Sphinx extension: the Python API's reference, made from
``analyzer.__all__``, and the rules its cross-references are checked by.

- The directive ``analyzer-api`` writes one autodoc entry per public name (a class with
  its public methods, a function, a constant with its ``#:`` comment), in the order of
  ``__all__``: a name the package exports is documented as soon as it is exported, and one
  without a docstring is a warning (an error under ``-W``).
- A reference the site does not document (a helper type in a signature, a module named
  in a docstring) is shown as code when it names something that exists in the package,
  and is a warning (nitpicky, ``-n``) when it names nothing: a renamed or misspelt name.
- A module imports some names only for type checkers (``if TYPE_CHECKING:``, to start
  quickly); the build imports them too, so that signatures read them.
- Napoleon reads the first line of an attribute's docstring as ``type: description``;
  this package's attribute comments are sentences ("What settles the bet: ..."), so
  attributes, properties and data keep their docstrings as written.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from functools import cache
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.docutils import SphinxDirective
from sphinx.util.logging import getLogger

logger = getLogger(__name__)

PACKAGE = "analyzer"


def public_names(package: str = PACKAGE) -> list[tuple[str, str, object]]:
    """``(kind, name, value)`` for every name in the package's ``__all__``; kind is
    ``class``, ``function`` or ``data``."""
    module = importlib.import_module(package)
    entries = []
    for name in module.__all__:
        value = getattr(module, name)
        if inspect.isclass(value):
            kind = "class"
        elif callable(value):
            kind = "function"
        else:
            kind = "data"
        entries.append((kind, name, value))
    return entries


def data_comment(name: str, package: str = PACKAGE) -> list[str]:
    """The ``#:`` comment over a public constant where its module defines it."""
    defined_in = importlib.import_module(package)._EXPORTS[name]
    docs = ModuleAnalyzer.for_module(defined_in).find_attr_docs()
    return list(docs.get(("", name), []))


class AnalyzerApi(SphinxDirective):
    """Every public name of :mod:`analyzer`, documented from its docstring."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        lines = StringList()
        source = self.get_source_info()[0]
        for kind, name, value in public_names():
            dotted = f"{PACKAGE}.{name}"
            if kind == "data":
                comment = data_comment(name)
                if not "".join(comment).strip():
                    logger.warning("%s has no #: comment", dotted, location=self.get_location())
                lines.append(f".. py:data:: {dotted}", source)
                lines.append("", source)
                for line in comment:
                    lines.append(f"   {line}", source)
            else:
                if not (inspect.getdoc(value) or "").strip():
                    logger.warning("%s has no docstring", dotted, location=self.get_location())
                lines.append(f".. auto{kind}:: {dotted}", source)
            lines.append("", source)
        container = nodes.section()
        container.document = self.state.document
        self.state.nested_parse(lines, self.content_offset, container)
        return container.children


@cache
def _package_names() -> dict[str, list[str]]:
    """Every top-level name of every module of the package: name -> modules."""
    found: dict[str, list[str]] = {}
    root = importlib.import_module(PACKAGE)
    for info in pkgutil.walk_packages(root.__path__, f"{PACKAGE}."):
        if info.name.endswith(".__main__"):  # runs the command line when imported
            continue
        try:
            module = importlib.import_module(info.name)
        except Exception:  # a module that needs an optional library: skipped
            continue
        for name in vars(module):
            found.setdefault(name, []).append(info.name)
        found.setdefault(info.name, []).append(info.name)
    return found


def _exists(target: str, module: str | None, cls: str | None) -> bool:
    """Whether ``target`` names something of the package, as Python would find it from
    ``module`` (and class ``cls``), or anywhere in the package when it is a bare name."""
    target = target.lstrip("~.")
    candidates = [target]
    if module:
        candidates += [f"{module}.{cls}.{target}" if cls else "", f"{module}.{target}"]
    for dotted in filter(None, candidates):
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                value = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            try:
                for attribute in parts[cut:]:
                    value = getattr(value, attribute)
            except AttributeError:
                break
            return dotted.startswith(f"{PACKAGE}.") or dotted == PACKAGE or bool(module)
    head = target.split(".")[0]
    return "." not in target and head in _package_names()


def _undocumented_reference(app, env, node, contnode):
    """A reference to a name the site does not document, shown as code when the name
    exists in the package; ``None`` (Sphinx warns) when it names nothing."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    if not (target.startswith(f"{PACKAGE}.") or (node.get("py:module") or "").startswith(PACKAGE)):
        return None
    if _exists(target, node.get("py:module"), node.get("py:class")):
        return contnode
    return None


def _import_type_checking_names() -> None:
    """Run each package module's ``if TYPE_CHECKING:`` imports into its namespace."""
    import ast

    _package_names()  # every module imported
    for name, module in list(sys.modules.items()):
        if not name.startswith(f"{PACKAGE}.") or not getattr(module, "__file__", None):
            continue
        try:
            tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        except (OSError, SyntaxError, UnicodeDecodeError):
            continue
        for node in tree.body:
            if isinstance(node, ast.If) and ast.unparse(node.test) in TYPE_CHECKING_TESTS:
                imports = [n for n in node.body if isinstance(n, (ast.Import, ast.ImportFrom))]
                code = compile(ast.Module(body=imports, type_ignores=[]), module.__file__, "exec")
                exec(code, vars(module))


TYPE_CHECKING_TESTS = ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def _class_signature(app, what, name, obj, options, signature, return_annotation):
    """A dataclass's signature with its annotations read as types (autodoc falls back to
    Python's own signature of the class, which leaves postponed annotations as text)."""
    if what != "class" or not name.startswith(f"{PACKAGE}.") or "__init__" not in vars(obj):
        return None
    from sphinx.util.inspect import signature as read_signature
    from sphinx.util.inspect import stringify_signature

    try:
        found = read_signature(obj.__init__, bound_method=True)
    except (TypeError, ValueError):
        return None
    short = app.config.autodoc_typehints_format == "short"
    return stringify_signature(
        found, show_return_annotation=False, unqualified_typehints=short
    ), None


_KEPT: dict[tuple[str, str], list[str]] = {}


def _keep(app, what, name, obj, options, lines) -> None:
    if what in ("attribute", "property", "data"):
        _KEPT[what, name] = list(lines)


def _restore(app, what, name, obj, options, lines) -> None:
    kept = _KEPT.pop((what, name), None)
    if kept is not None:
        lines[:] = kept


def setup(app: Sphinx) -> dict:
    app.add_directive("analyzer-api", AnalyzerApi)
    _import_type_checking_names()
    app.connect("missing-reference", _undocumented_reference)
    app.connect("autodoc-process-signature", _class_signature)
    # Napoleon processes docstrings at the default priority (500): around it.
    app.connect("autodoc-process-docstring", _keep, priority=400)
    app.connect("autodoc-process-docstring", _restore, priority=600)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
