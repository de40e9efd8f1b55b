"""The documentation's pages and the code examples in them, as the conventions of the
site (docs/contributing.md, "Writing a page") define them: every fenced block of every
Markdown page under ``docs/``, with its language, caption and text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt

DOCS = Path(__file__).resolve().parents[2] / "docs"

#: Directive fences that hold no example (the site's own machinery).
NOT_EXAMPLES = frozenset({"toctree", "eval-rst", "include", "argparse", "analyzer-api"})
#: A page says ``<!-- examples: slow -->`` when its examples take a minute or more.
SLOW_MARK = "<!-- examples: slow -->"


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # 1-based, of the opening fence
    language: str  # console, python, toml, text, ... ("" when none is given)
    caption: str | None  # the file a {code-block} with :caption: writes
    text: str

    @property
    def where(self) -> str:
        shown = self.page.relative_to(DOCS) if self.page.is_relative_to(DOCS) else self.page
        return f"{shown}:{self.line}"


def pages() -> list[Path]:
    """Every Markdown page of the site, in a fixed order (``_build`` left out)."""
    return sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.relative_to(DOCS).parts)


def is_slow(page: Path) -> bool:
    return SLOW_MARK in page.read_text(encoding="utf-8")


_OPTION = re.compile(r"^:([A-Za-z_-]+):\s*(.*)$")


def blocks(page: Path) -> list[Block]:
    """The page's fenced blocks in order; a directive's options (``:caption: x``) are read
    off its first lines."""
    found = []
    for token in MarkdownIt("commonmark").parse(page.read_text(encoding="utf-8")):
        if token.type != "fence":
            continue
        info = token.info.strip()
        text = token.content
        caption = None
        if info.startswith("{"):
            directive, _, argument = info[1:].partition("}")
            if directive in NOT_EXAMPLES:
                continue
            if directive == "literalinclude":  # a file of the repository, shown
                language, text = "{literalinclude}", argument.strip()
            elif directive != "code-block" and directive != "code":
                language = "{" + directive + "}"
            else:
                language = argument.strip()
                lines = text.split("\n")
                while lines and (option := _OPTION.match(lines[0])):
                    if option.group(1) == "caption":
                        caption = option.group(2).strip()
                    lines.pop(0)
                if lines and not lines[0].strip():
                    lines.pop(0)
                text = "\n".join(lines)
        else:
            language = info.split()[0] if info else ""
        found.append(Block(page, token.map[0] + 1, language, caption, text))
    return found
