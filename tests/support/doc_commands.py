"""The shell commands the README and the documentation tell a reader to run, read from the
Markdown so the tests follow the pages as they change.

A command is a line of a ``bash``/``sh``/``shell`` block (a ``\\`` continues it; a ``# ...``
comment after it is kept apart), a ``$ ``-prompted line of a ``console`` or ``text`` block
(the lines after it are its output), a ``toollens`` line of a ``yaml`` block (a CI step's
``run:``), or an inline code span that starts with ``.venv/bin/`` (the install tables).
Each command knows the extras its page installed before it (``pip install -e ".[tokens]"``,
``pip install "toollens[mcp]"``, in a block or in the prose; a table row's only for that
row): the README's blocks share one virtual environment, so do a page's.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
# The pages whose commands are checked: the README, the lessons' README, every docs page.
PAGES = (
    ROOT / "README.md",
    ROOT / "notebooks" / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
)

_FENCE = re.compile(r"^```([a-z]*)\s*$")
_SHELL = {"bash", "sh", "shell"}
_PROMPTED = {"console", "text"}
# `pip install -e ".[tokens,fuzz]"`, `pip install 'toollens[mcp]'`: the extras named
_EXTRAS = re.compile(r"""pip install[^`\n]*?(?:\.|toollens)\[([a-z0-9,-]+)\]""")
_INLINE = re.compile(r"`(\.venv/bin/[^`]+)`")


@dataclass(frozen=True)
class Command:
    """One command as a page writes it."""

    page: str  # relative to the repository: "README.md", "docs/tokens.md"
    line: int  # 1-based line of the command on its page
    text: str  # the command as written, without its trailing comment
    comment: str = ""  # the trailing ``# ...`` comment, without the ``#``
    output: tuple[str, ...] = ()  # the output lines a console block shows after it
    extras: frozenset[str] = field(default_factory=frozenset)  # installed before it on its page
    block: int = -1  # index of its fenced block on the page (-1: inline)

    @property
    def simple(self) -> list[list[str]]:
        """The simple commands of the line, split as the shell splits them."""
        return simple_commands(self.text)

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.text}"


def simple_commands(line: str) -> list[list[str]]:
    """``a && { [ -e f ] || cp s d; } && b`` -> the argv of a, ``[ -e f ]``, ``cp s d``, b."""
    commands = []
    for part in re.split(r"\s*(?:&&|\|\||;)\s*", line.strip()):
        part = part.strip("{} ")
        if part:
            commands.append(shlex.split(part))
    return commands


def _split_comment(line: str) -> tuple[str, str]:
    """The command and its trailing comment: a ``#`` outside quotes that starts a word."""
    quote = None
    for i, char in enumerate(line):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1 :].strip()
    return line.rstrip(), ""


def _extras(text: str) -> set[str]:
    return {extra for found in _EXTRAS.findall(text) for extra in found.split(",")}


def page_commands(path: Path) -> list[Command]:
    """Every command of one page, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    page = path.relative_to(ROOT).as_posix()
    commands: list[Command] = []
    extras: set[str] = set()
    lang: str | None = None
    block = -1
    i = 0
    while i < len(lines):
        text = lines[i]
        fence = _FENCE.match(text)
        if lang is None and fence:
            lang, block = fence.group(1), block + 1
        elif lang is not None and text.startswith("```"):
            lang = None
        elif lang is None:
            # A table row's commands are one alternative: its installs hold for that row only.
            row = set(extras)
            for found in _INLINE.findall(text):
                commands.append(Command(page, i + 1, found, extras=frozenset(row)))
                row |= _extras(found)
            if not text.startswith("|"):
                extras |= _extras(text)
        elif lang == "yaml" and re.match(r"\s*(run:\s*)?toollens ", text):
            command, comment = _split_comment(re.sub(r"^\s*(run:\s*)?", "", text))
            commands.append(Command(page, i + 1, command, comment, (), frozenset(extras), block))
        elif lang in _SHELL or (lang in _PROMPTED and text.startswith("$ ")):
            start, joined = i, text.removeprefix("$ ")
            while joined.endswith("\\") and i + 1 < len(lines):
                i += 1
                joined = joined[:-1].rstrip() + " " + lines[i].strip()
            command, comment = _split_comment(joined)
            if command:
                output: list[str] = []
                while lang in _PROMPTED and i + 1 < len(lines):
                    following = lines[i + 1]
                    if following.startswith(("$ ", "```")):
                        break
                    output.append(following)
                    i += 1
                commands.append(
                    Command(
                        page, start + 1, command, comment, tuple(output), frozenset(extras), block
                    )
                )
                extras |= _extras(command)
        i += 1
    return commands


def doc_commands(pages: tuple[Path, ...] = PAGES) -> list[Command]:
    """Every command of every page."""
    return [command for path in pages for command in page_commands(path)]


def program(argv: list[str]) -> str:
    """The program a simple command runs: ``.venv/bin/toollens`` -> ``toollens``."""
    return Path(argv[0]).name if argv else ""
