"""The documentation site: built with ``mkdocs build --strict``, offline, links that resolve,
generated pages that match the code, and every example on it run.

The build needs the ``docs`` packages (in the ``test`` extra); without them the build tests
skip. The examples run without them.
"""

from __future__ import annotations

import argparse
import html
import io
import json
import re
import shlex
import sys
import types
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

import pytest

from support.doc_commands import doc_commands
from support.site_build import (
    LESSONS,
    build_site,
    lesson_code_and_prose,
    lesson_view_texts,
    words,
)

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
EXAMPLE_PAGES = [ROOT / "README.md", *PAGES]  # the README's examples run too
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


class _Page(HTMLParser):
    """The ids, links and external resources of one built page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.resources: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if "id" in values:
            self.ids.add(values["id"])
        if tag == "a" and "name" in values:
            self.ids.add(values["name"])
        if tag == "a" and "href" in values:
            self.links.append(values["href"])
        if tag in ("script", "img", "iframe") and values.get("src"):
            self.resources.append(values["src"])
        if tag == "link" and values.get("href"):
            self.resources.append(values["href"])
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        # an inline script's import("https://...") loads from the network as a src does
        if getattr(self, "_in_script", False):
            self.resources.extend(re.findall(r"""import\(\s*["'](https?://[^"']+)""", data))
            self.resources.extend(re.findall(r"""["'](https?://[^"']+\.m?js)["']""", data))


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def site(site_dir: Path) -> dict[Path, _Page]:
    pages = {}
    for path in site_dir.rglob("*.html"):
        parser = _Page()
        parser.feed(path.read_text(encoding="utf-8"))
        pages[path] = parser
    return pages


def _external(url: str) -> bool:
    return bool(urlparse(url).scheme) or url.startswith("//")


@pytest.mark.slow
def test_every_internal_link_and_anchor_resolves(site: dict[Path, _Page]) -> None:
    broken = []
    for path, page in site.items():
        for link in page.links:
            if _external(link) or link.startswith("mailto:"):
                continue
            target, fragment = urldefrag(link)
            if path.name == "404.html" and target.startswith("/"):
                target = target.lstrip("/")  # served from the site's root, any depth
                file = (min(site, key=lambda p: len(p.parts)).parent / target).resolve()
            else:
                file = (path.parent / unquote(target)).resolve() if target else path
            if file.is_dir():
                file = file / "index.html"
            if not file.exists():
                broken.append(f"{path.name}: {link} (no such file)")
            elif fragment and file.suffix == ".html" and fragment not in site[file].ids:
                broken.append(f"{path.name}: {link} (no such anchor)")
    assert not broken, "\n".join(broken)


@pytest.mark.slow
def test_the_site_loads_nothing_from_the_network(site: dict[Path, _Page]) -> None:
    external = {
        f"{path.name}: {url}"
        for path, page in site.items()
        for url in page.resources
        if _external(url)
    }
    assert not external, sorted(external)


@pytest.mark.slow
def test_every_page_of_the_nav_is_built(site: dict[Path, _Page]) -> None:
    names = {path.name for path in site}
    for page in PAGES:
        assert page.with_suffix(".html").name in names, page.name
    lessons = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert lessons
    for lesson in lessons:
        built = next(p for p in site if p.name == lesson.with_suffix(".html").name)
        text = built.read_text(encoding="utf-8")
        if '"tl-root"' in lesson.read_text(encoding="utf-8"):
            assert 'class="tl-root"' in text, f"{lesson.name}: static views missing"


@pytest.mark.slow
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_search_finds_a_lessons_prose_and_not_its_code(site_dir: Path, lesson: Path) -> None:
    """Material's index, as the search box reads it: a lesson's prose and the views its
    cells display are found, the source of its code cells is not."""
    index = json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))
    texts = [words(html.unescape(e["title"] + " " + e["text"])) for e in index["docs"]]
    page = f"lessons/{lesson.stem}.html"
    lesson_texts = [
        words(html.unescape(entry["text"]))
        for entry in index["docs"]
        if entry["location"].split("#")[0] == page
    ]
    code, prose = lesson_code_and_prose(lesson)
    assert code, f"{lesson.name}: no code line to look for"
    assert prose, f"{lesson.name}: no line of plain prose to look for"
    found = [line for line in code if any(line in text for text in texts)]
    assert not found, f"code of {lesson.name} in the search index: {found[:5]}"
    missing = [line for line in prose if not any(line in text for text in lesson_texts)]
    assert not missing, f"prose of {lesson.name} not in the search index: {missing[:5]}"
    views = [run for run in lesson_view_texts(lesson) if not any(run in t for t in lesson_texts)]
    assert not views, f"views of {lesson.name} not in the search index: {views[:5]}"


@pytest.mark.slow
def test_command_line_page_lists_every_command_and_option(site: dict[Path, _Page]) -> None:
    from toollens.cli import build_parser

    html = next(p for p in site if p.name == "cli.html").read_text(encoding="utf-8")
    parser = build_parser(io.StringIO(), io.StringIO())
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in sub.choices.items():
        assert f"toollens {name}" in html, name
        for action in command._actions:
            for option in action.option_strings:
                assert option in html, f"{name} {option}"


@pytest.mark.slow
def test_rules_page_lists_every_rule_with_its_source(site: dict[Path, _Page]) -> None:
    from toollens.core.lint import LINT_RULES
    from toollens.core.providers.api import RULES_BY_ID
    from toollens.core.strict.rules import StrictRule

    html = next(p for p in site if p.name == "rules.html").read_text(encoding="utf-8")
    for lint_rule in LINT_RULES:
        assert str(lint_rule.id) in html
    for strict_rule in StrictRule:
        assert f"<code>{strict_rule.value}</code>" in html, strict_rule
    for provider_rule in RULES_BY_ID.values():
        assert provider_rule.id in html
        assert provider_rule.cite.url.replace("&", "&amp;") in html, provider_rule.id


@pytest.mark.parametrize(
    "page", [p for p in EXAMPLE_PAGES if PYTHON_BLOCK.search(p.read_text())], ids=lambda p: p.name
)
def test_python_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``python`` block of a page runs, in order, in one module per page."""
    monkeypatch.chdir(tmp_path)
    # A real module, as a reader's script or notebook is: frameworks resolve annotations
    # through the function's module.
    module = types.ModuleType(f"docs_example_{page.stem.replace('-', '_')}")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    for block in PYTHON_BLOCK.findall(page.read_text(encoding="utf-8")):
        exec(compile(block, str(page), "exec"), module.__dict__)


def _command_lines() -> list[tuple[str, str]]:
    """``toollens ...`` lines of the docs that run on the bundled examples (read by the
    parser the command tests share; tests/test_doc_commands.py runs them in a fresh venv)."""
    return [
        (Path(command.page).name, command.text)
        for command in doc_commands((ROOT / "README.md", *PAGES))
        if command.text.startswith("toollens ") and "toollens.examples:" in command.text
    ]


@pytest.mark.parametrize(("page", "command"), _command_lines())
def test_command_line_examples_run(page: str, command: str) -> None:
    from toollens.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(shlex.split(command)[1:], stdout=out, stderr=err)
    assert code in (0, 1), f"{page}: {command} exited {code}: {err.getvalue()}"
    assert out.getvalue().strip()


def test_pages_have_command_line_examples_to_run() -> None:
    assert len(_command_lines()) >= 3
