"""The help pages' site configuration (``docs --site --config SITE.toml``): the operator's
name, logo, stylesheet and footer, the decimals of every figure, and the languages.

The file is untrusted: it is read as data (:func:`analyzer.files.read_toml`), nothing in
it is run, an unknown key is refused, and its texts reach the pages through Jinja2's
autoescaping. The logo and the stylesheet are local files (paths relative to the
configuration file), read once and copied into the site: never fetched, never a folder or
a device, never larger than their limits; a logo must be a PNG, JPEG or SVG image by its
content as well as its name, and an SVG or a stylesheet may not run or load anything.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.files import read_input, read_toml
from analyzer.reports.i18n import LANGUAGES
from analyzer.schema import MAX_NOTE, check_keys, list_of, optional, table, whole_number

#: The keys of a site configuration file.
KEYS = ("operator", "logo", "stylesheet", "footer", "decimals", "languages")
#: Decimals of every percentage of the analysis on a page, as help pages print them.
DEFAULT_DECIMALS = 2
MAX_DECIMALS = 6
#: The largest logo and stylesheet copied into a site.
MAX_LOGO_BYTES = 2**20
MAX_STYLESHEET_BYTES = 256 * 2**10
#: The longest operator's name.
MAX_OPERATOR = 200
#: A logo's kind by its file name's suffix, and the name it is copied to.
LOGO_SUFFIXES = {".png": "logo.png", ".jpg": "logo.jpg", ".jpeg": "logo.jpg", ".svg": "logo.svg"}
#: The name the operator's stylesheet is copied to, linked after the shipped one.
STYLESHEET = "operator.css"


@dataclass(frozen=True)
class SiteConfig:
    """How a site looks: the operator's name (``""``: none), logo (its file name in the
    site and its bytes), stylesheet (CSS text, linked after the shipped one), footer
    (plain text, replacing the shipped footer), the decimals of every percentage of the
    analysis on a page, and the languages of the pages."""

    operator: str = ""
    logo: tuple[str, bytes] | None = None
    stylesheet: str | None = None
    footer: str | None = None
    decimals: int = DEFAULT_DECIMALS
    languages: tuple[str, ...] = LANGUAGES


def read_site_config(path: str | Path) -> SiteConfig:
    """The site configuration in the TOML file ``path``; every problem is one
    :class:`~analyzer.errors.AnalyzerError` naming the file."""
    path = Path(path)
    return site_config_from_dict(read_toml(path), path.parent, str(path))


def site_config_from_dict(
    data: Mapping[str, Any], folder: Path, where: str = "<site config>"
) -> SiteConfig:
    """A site configuration from its table; ``logo`` and ``stylesheet`` are paths relative
    to ``folder`` (the configuration file's)."""
    table(data, where, "a site configuration")
    check_keys(data, KEYS, where)
    operator = optional(data, "operator", str, where, "")
    if "\n" in operator or len(operator) > MAX_OPERATOR:
        raise AnalyzerError(f"{where}: 'operator' must be one line of at most {MAX_OPERATOR}")
    footer = optional(data, "footer", str, where)
    if footer is not None and len(footer) > MAX_NOTE:
        raise AnalyzerError(f"{where}: 'footer' is longer than {MAX_NOTE:,} characters")
    decimals = data.get("decimals", DEFAULT_DECIMALS)
    decimals = whole_number(decimals, where, "'decimals'", 0, MAX_DECIMALS)
    languages = tuple(list_of(data.get("languages", list(LANGUAGES)), str, where, "'languages'"))
    for lang in languages:
        if lang not in LANGUAGES:
            raise AnalyzerError(
                f"{where}: 'languages': no pages in {lang[:20]!r} (languages: "
                f"{', '.join(LANGUAGES)})"
            )
    if not languages or len(set(languages)) != len(languages):
        raise AnalyzerError(f"{where}: 'languages' must name each language once, at least one")
    logo = optional(data, "logo", str, where)
    stylesheet = optional(data, "stylesheet", str, where)
    return SiteConfig(
        operator=operator.strip(),
        logo=None if logo is None else _logo(_local(folder, logo, "logo", where), where),
        stylesheet=(
            None
            if stylesheet is None
            else _stylesheet(_local(folder, stylesheet, "stylesheet", where), where)
        ),
        footer=footer.strip() or None if footer is not None else None,
        decimals=decimals,
        languages=languages,
    )


#: A URL's scheme (``https:``, ``data:``, ``file:``; one letter is a Windows drive) or a
#: network path (``//host``, ``\\\\host``).
_URL = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]+:|//|\\\\)")


def _local(folder: Path, value: str, key: str, where: str) -> Path:
    """The local file ``value`` names, relative to the configuration's folder; a URL is
    refused, never fetched."""
    if not value.strip():
        raise AnalyzerError(f"{where}: {key!r} is empty: give a file's path")
    if _URL.match(value.strip()):
        raise AnalyzerError(f"{where}: {key!r} must be a local file, not a URL: {value[:60]!r}")
    return folder / value


def _read(path: Path, key: str, limit: int, where: str) -> bytes:
    try:
        data = read_input(path)  # a regular file only: a folder or a device is refused
    except AnalyzerError as exc:
        raise AnalyzerError(f"{where}: {key!r}: {exc}") from None
    if len(data) > limit:
        raise AnalyzerError(f"{where}: {key!r}: {path} is larger than {limit // 1024:,} KiB")
    return data


def _logo(path: Path, where: str) -> tuple[str, bytes]:
    name = LOGO_SUFFIXES.get(path.suffix.lower())
    if name is None:
        raise AnalyzerError(
            f"{where}: 'logo': {path.name[:60]!r} is not a .png, .jpg or .svg image"
        )
    data = _read(path, "logo", MAX_LOGO_BYTES, where)
    if name == "logo.png":
        good = data.startswith(b"\x89PNG\r\n\x1a\n")
    elif name == "logo.jpg":
        good = data.startswith(b"\xff\xd8\xff")
    else:
        good = _safe_svg(data, path, where)
    if not good:
        kind = {"logo.png": "a PNG", "logo.jpg": "a JPEG", "logo.svg": "an SVG"}[name]
        raise AnalyzerError(f"{where}: 'logo': {path} is not {kind} image")
    return name, data


#: What an SVG logo may not hold: anything that runs or loads, and entity declarations.
_SVG_ACTIVE = {"script", "foreignobject", "iframe", "object", "embed", "handler", "listener"}
_SVG_HREF = {"href", "{http://www.w3.org/1999/xlink}href", "src"}


def _safe_svg(data: bytes, path: Path, where: str) -> bool:
    """Is ``data`` an SVG image that runs and loads nothing? False if it is no SVG;
    one line refusing it if it is one that would run or load something."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    if re.search(r"<!(DOCTYPE|ENTITY)", text, re.IGNORECASE):
        raise AnalyzerError(f"{where}: 'logo': {path} declares a DOCTYPE or entities")
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        return False
    if root.tag.rpartition("}")[2] != "svg":
        return False
    for element in root.iter():
        tag = element.tag.rpartition("}")[2].lower() if isinstance(element.tag, str) else ""
        if tag in _SVG_ACTIVE:
            raise AnalyzerError(f"{where}: 'logo': {path} has a <{tag}> element")
        for attribute, value in element.attrib.items():
            local = attribute.rpartition("}")[2].lower()
            if local.startswith("on"):
                raise AnalyzerError(f"{where}: 'logo': {path} has an event handler ({local})")
            if attribute in _SVG_HREF and not value.strip().startswith("#"):
                raise AnalyzerError(f"{where}: 'logo': {path} links outside itself")
        _check_css(" ".join(filter(None, [element.text, element.get("style")])), path, where)
    return True


_CSS_LOADS = re.compile(r"@import|\burl\s*\(|image-set\s*\(", re.IGNORECASE)
#: A CSS escape: a backslash and 1 to 6 hex digits (and one space after), or any character.
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})[ \t\n]?|\\(.)", re.DOTALL)


def _unescaped(found: re.Match) -> str:
    if found[1] is None:
        return found[2]
    code = int(found[1], 16)
    return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"


def _check_css(text: str, path: Path, where: str, key: str = "logo") -> None:
    """Refuse CSS that would load a file (``@import``, ``url()``, ``image-set()``),
    looked for with its escapes undone: a site is self-contained."""
    found = _CSS_LOADS.search(_CSS_ESCAPE.sub(_unescaped, text))
    if found:
        shown = found[0].lower().replace(" ", "")
        raise AnalyzerError(
            f"{where}: {key!r}: {path} may not load other files ({shown}): a site is self-contained"
        )


def _stylesheet(path: Path, where: str) -> str:
    if path.suffix.lower() != ".css":
        raise AnalyzerError(f"{where}: 'stylesheet': {path.name[:60]!r} is not a .css file")
    data = _read(path, "stylesheet", MAX_STYLESHEET_BYTES, where)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise AnalyzerError(f"{where}: 'stylesheet': {path} is not UTF-8 text") from None
    if "\x00" in text:
        raise AnalyzerError(f"{where}: 'stylesheet': {path} is not text")
    _check_css(text, path, where, "stylesheet")
    return text
