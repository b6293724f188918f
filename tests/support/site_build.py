"""The documentation site built as ``mkdocs build`` builds it, into a folder of the test's,
and what a lesson's notebook says, to look for on the built site."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from support import REPO_ROOT


def build_site(out: Path) -> Path:
    """The site built into ``out`` with ``--strict`` (skips without the ``docs`` packages)."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    pytest.importorskip("mkdocs_jupyter")
    pytest.importorskip("mkdocstrings_handlers.python")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(REPO_ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return out


LESSONS = sorted((REPO_ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
_MARKDOWN_SYNTAX = re.compile(r"[`*_\[\]()<>#|\\]")


def words(text: str) -> str:
    """Text as the search index and the page read it: any run of whitespace is one space."""
    return " ".join(text.split())


def _text(source: Any) -> str:
    return "".join(source) if isinstance(source, list) else str(source)


def _output_text(cell: dict[str, Any]) -> str:
    """What a code cell's saved outputs show, markup dropped."""
    parts = []
    for output in cell.get("outputs", []):
        parts.append(_text(output.get("text", "")))
        parts += [_text(value) for value in output.get("data", {}).values()]
    return html.unescape(re.sub(r"<[^>]+>", " ", "\n".join(parts)))


def lesson_code_and_prose(lesson: Path) -> tuple[list[str], list[str]]:
    """A lesson's lines of code cells found nowhere else (not in its prose, not in what its
    cells display, not on a documentation page), and its lines of plain prose (markdown
    cells' lines a sentence long with no markdown syntax); both as ``words`` reads them."""
    cells = json.loads(lesson.read_text(encoding="utf-8"))["cells"]
    markdown = [_text(cell["source"]) for cell in cells if cell["cell_type"] == "markdown"]
    pages = [page.read_text(encoding="utf-8") for page in (REPO_ROOT / "docs").glob("*.md")]
    elsewhere = words(" ".join([*markdown, *(_output_text(cell) for cell in cells), *pages]))
    code = {
        words(line)
        for cell in cells
        if cell["cell_type"] == "code"
        for line in _text(cell["source"]).splitlines()
        if len(line.strip()) >= 20 and words(line) not in elsewhere
    }
    prose = [
        words(line)
        for text in markdown
        for line in text.splitlines()
        if len(line.strip()) >= 40 and not _MARKDOWN_SYNTAX.search(line) and line[:1].isalpha()
    ]
    return sorted(code), prose


class _ViewText(HTMLParser):
    """The text runs of a view's HTML a sentence long, scripts and styles left out."""

    def __init__(self) -> None:
        super().__init__()
        self.runs: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hidden += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._hidden and len(words(data)) >= 30:
            self.runs.append(words(data))


def lesson_view_texts(lesson: Path) -> list[str]:
    """The text of the views a lesson's code cells display (saved HTML outputs)."""
    parser = _ViewText()
    for cell in json.loads(lesson.read_text(encoding="utf-8"))["cells"]:
        for output in cell.get("outputs", []):
            parser.feed(_text(output.get("data", {}).get("text/html", "")))
    return parser.runs
