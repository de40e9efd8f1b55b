"""The help pages' site configuration (``docs --site --config SITE.toml``): each key read
and checked, an unknown key refused, the logo and stylesheet local files that run and load
nothing, and every text escaped on the pages."""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

import html5lib
import pytest

from analyzer import analyze
from analyzer.errors import AnalyzerError
from analyzer.paytables.library import load_paytable
from analyzer.reports.i18n import LANGUAGES
from analyzer.reports.site import SitePaytable, render_site
from analyzer.reports.site_config import (
    MAX_LOGO_BYTES,
    SiteConfig,
    read_site_config,
    site_config_from_dict,
)


def png(width: int = 8, height: int = 4) -> bytes:
    """A small valid PNG (one colour)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    raw = b"".join(b"\x00" + b"\xc0\x20\x20" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
    '<rect width="40" height="20" fill="#a00"/></svg>'
)


def write(folder: Path, text: str) -> Path:
    path = folder / "site.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults() -> None:
    config = site_config_from_dict({}, Path("."))
    assert config == SiteConfig()
    assert (config.operator, config.logo) == ("", None)
    assert (config.stylesheet, config.footer) == (None, None)
    assert config.decimals == 2 and config.languages == LANGUAGES


def test_every_key(tmp_path) -> None:
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "Logo.PNG").write_bytes(png())
    (tmp_path / "brand.css").write_text("h1 { color: #800; }\n/* \\2014 */\n")
    path = write(
        tmp_path,
        'operator = "Casino Royale"\nlogo = "art/Logo.PNG"\nstylesheet = "brand.css"\n'
        'footer = "Play responsibly.\\nLicensed."\ndecimals = 4\nlanguages = ["ms", "en"]\n',
    )
    config = read_site_config(path)
    assert config.operator == "Casino Royale"
    assert config.logo == ("logo.png", png())  # relative to the configuration's folder
    assert config.stylesheet.startswith("h1 { color: #800; }")
    assert config.footer == "Play responsibly.\nLicensed."
    assert config.decimals == 4 and config.languages == ("ms", "en")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('operatr = "x"', "unknown key 'operatr' (keys: decimals, footer, languages, logo, "),
        ("decimals = 7", "'decimals' must be from 0 to 6"),
        ("decimals = -1", "'decimals' must be from 0 to 6"),
        ("decimals = 2.5", "'decimals' must be a whole number"),
        ("decimals = true", "'decimals' must be a whole number"),
        ('decimals = "2"', "'decimals' must be a whole number"),
        ("operator = 3", "'operator' must be text"),
        ('operator = "a\\nb"', "'operator' must be one line"),
        (f'operator = "{"x" * 201}"', "'operator' must be one line of at most 200"),
        (f'footer = "{"x" * 2001}"', "'footer' is longer than 2,000 characters"),
        ("footer = []", "'footer' must be text"),
        ('languages = ["fr"]', "'languages': no pages in 'fr' (languages: en, tl, ms)"),
        ("languages = []", "'languages' must name each language once"),
        ('languages = ["en", "en"]', "'languages' must name each language once"),
        ('languages = "en"', "'languages' must be a list of text"),
        ('logo = ""', "'logo' is empty"),
        ('logo = "https://example.com/logo.png"', "'logo' must be a local file, not a URL"),
        ('logo = "//example.com/logo.png"', "'logo' must be a local file, not a URL"),
        ('stylesheet = "data:text/css,h1{}"', "'stylesheet' must be a local file, not a URL"),
        ('logo = "missing.png"', "'logo':"),
        ('logo = "logo.gif"', "'logo': 'logo.gif' is not a .png, .jpg or .svg image"),
        ('stylesheet = "brand.txt"', "'stylesheet': 'brand.txt' is not a .css file"),
        ('footer = "a\\u202eb"', "the control character U+202E"),
        ("[operator]\nname = 'x'", "'operator' must be text"),
    ],
)
def test_bad_values_are_refused_in_one_line(tmp_path, text, words) -> None:
    with pytest.raises(AnalyzerError) as caught:
        read_site_config(write(tmp_path, text))
    message = str(caught.value)
    assert words in message and "\n" not in message
    assert message.startswith(str(tmp_path / "site.toml"))


def test_invalid_toml_is_one_line(tmp_path) -> None:
    with pytest.raises(AnalyzerError, match="invalid TOML"):
        read_site_config(write(tmp_path, "operator = "))


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("logo.png", b"GIF89a not a png", "is not a PNG image"),
        ("logo.jpg", png(), "is not a JPEG image"),
        ("logo.svg", png(), "is not an SVG image"),
        ("logo.svg", b"<html><body>hi</body></html>", "is not an SVG image"),
        ("logo.png", b"\x89PNG\r\n\x1a\n" + b"\0" * MAX_LOGO_BYTES, "is larger than 1,024 KiB"),
        ("logo.svg", SVG.replace("<rect", "<script>alert(1)</script><rect").encode(), "<script>"),
        ("logo.svg", SVG.replace("<rect", '<rect onclick="alert(1)"').encode(), "event handler"),
        (
            "logo.svg",
            SVG.replace("<rect", '<image href="https://example.com/x.png"/><rect').encode(),
            "links outside itself",
        ),
        (
            "logo.svg",
            SVG.replace("<rect", "<style>a { fill: url(https://e.com/x) }</style><rect").encode(),
            "may not load other files (url(",
        ),
        (
            "logo.svg",
            b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "b">]>' + SVG.encode(),
            "declares a DOCTYPE or entities",
        ),
        ("logo.svg", SVG.replace("<rect", "<foreignObject/><rect").encode(), "<foreignobject>"),
    ],
)
def test_a_logo_must_be_an_image_that_runs_and_loads_nothing(tmp_path, name, content, words):
    (tmp_path / name).write_bytes(content)
    with pytest.raises(AnalyzerError, match="'logo': ") as caught:
        read_site_config(write(tmp_path, f'logo = "{name}"'))
    assert words in str(caught.value)


@pytest.mark.parametrize("name", ["logo.png", "logo.jpg", "logo.svg"])
def test_a_logo_of_each_kind(tmp_path, name) -> None:
    content = {
        "logo.png": png(),
        "logo.jpg": b"\xff\xd8\xff\xe0" + b"\0" * 20,
        "logo.svg": SVG.encode(),
    }[name]
    (tmp_path / name.upper()).write_bytes(content)
    config = read_site_config(write(tmp_path, f'logo = "{name.upper()}"'))
    assert config.logo == (name, content)


def test_a_logo_that_is_a_folder_or_a_fifo_is_refused(tmp_path) -> None:
    (tmp_path / "dir.png").mkdir()
    with pytest.raises(AnalyzerError, match="'logo': "):
        read_site_config(write(tmp_path, 'logo = "dir.png"'))
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo.svg")
        with pytest.raises(AnalyzerError, match="not a regular file"):  # and not waited on
            read_site_config(write(tmp_path, 'logo = "fifo.svg"'))


@pytest.mark.parametrize(
    "css",
    [
        "@import 'x.css';",
        "body { background: url(https://example.com/a.png) }",
        "body { background: URL ( 'a.png' ) }",
        "body { background: \\75 rl(a.png) }",  # an escape of url(
        "@font-face { src: u\\rl(f.woff) }",
        "body { background-image: image-set('a.png' 1x) }",
    ],
)
def test_a_stylesheet_may_not_load_other_files(tmp_path, css) -> None:
    (tmp_path / "brand.css").write_text(css)
    with pytest.raises(AnalyzerError, match=r"'stylesheet': .* may not load other files"):
        read_site_config(write(tmp_path, 'stylesheet = "brand.css"'))


def test_a_stylesheet_is_text(tmp_path) -> None:
    (tmp_path / "brand.css").write_bytes(b"\xff\xfe h1 {}")
    with pytest.raises(AnalyzerError, match="is not UTF-8 text"):
        read_site_config(write(tmp_path, 'stylesheet = "brand.css"'))


def parse(text: str):
    return html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(text)


def test_a_configured_site(tmp_path) -> None:
    """The operator's name in every header and title, the logo and stylesheet copied in
    and used by every page, the footer's text (escaped: a hostile footer is text, never
    markup), and only the languages chosen."""
    (tmp_path / "logo.svg").write_bytes(SVG.encode())
    (tmp_path / "brand.css").write_text("h1 { color: #800; }")
    hostile = "<script>alert(1)</script><img src=x onerror=alert(1)>"
    path = write(
        tmp_path,
        'operator = "Casino <b>Royale</b> & Co"\nlogo = "logo.svg"\nstylesheet = "brand.css"\n'
        f"footer = '''Play responsibly. {hostile}\nLicensed.'''\n"
        'languages = ["en", "ms"]\n',
    )
    config = read_site_config(path)
    analysis = analyze(paytable=load_paytable("tie-9-to-1"))
    files = render_site([SitePaytable("tie", analysis)], config)
    assert set(files) == {
        "index.html",
        "style.css",
        "operator.css",
        "logo.svg",
        "tie/en.html",
        "tie/ms.html",
    }
    assert files["logo.svg"] == SVG.encode() and files["operator.css"] == "h1 { color: #800; }"
    for path, root in (("index.html", ""), ("tie/en.html", "../"), ("tie/ms.html", "../")):
        page = parse(files[path])
        assert page.find(".//script") is None and page.find(".//b") is None, path
        assert page.find(".//footer//img") is None, path
        title = " ".join(page.find("head/title").itertext())
        assert title.endswith(" \N{EN DASH} Casino <b>Royale</b> & Co"), title
        header = page.find("body/header")
        assert "".join(header.find("span").itertext()) == "Casino <b>Royale</b> & Co"
        assert header.find("img").get("src") == f"{root}logo.svg"
        sheets = [link.get("href") for link in page.iter("link")]
        assert sheets == [f"{root}style.css", f"{root}operator.css"], path
        footer = [" ".join(p.itertext()) for p in page.find("body/footer")]
        assert footer == [f"Play responsibly. {hostile}", "Licensed."], path
        assert "baccarat-odds" not in " ".join(page.find("body/footer").itertext())
        if path != "index.html":
            nav = [a.get("hreflang") for a in page.find("body/nav").iter("a")]
            assert "tl" not in nav, path
    assert "&lt;script&gt;" in files["tie/en.html"]


def test_without_a_config_the_shipped_footer_and_no_header() -> None:
    files = render_site([SitePaytable("tie", analyze(paytable=load_paytable("tie-9-to-1")))])
    page = parse(files["tie/en.html"])
    assert page.find("body/header") is None
    assert "Generated by baccarat-odds" in " ".join(page.find("body/footer").itertext())
    assert {"logo.png", "logo.svg", "operator.css"}.isdisjoint(files)
