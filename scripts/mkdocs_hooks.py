"""MkDocs hooks: the pages that are generated, so they cannot drift from the code.

- ``<!-- toollens:cli -->`` becomes the command-line reference, read from the argparse
  parser the ``toollens`` command uses;
- ``<!-- toollens:rules -->`` becomes the rule tables (lint, strict rewrites and refusals,
  provider rules with their sources and dates), read from the rule tables themselves;
- ``<!-- toollens:frameworks -->`` becomes the frameworks table that
  ``scripts/framework_table.py --write`` measured (``scripts/framework_table.md``);
- a screenshot the browser tests took (``tests/artifacts/explorer_1400.png`` ...) replaces
  the committed one under ``docs/images/``, so a fresh build shows the explorer as it is;
- the search index holds a lesson's prose, headings and views, not its code cells' source.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
from collections.abc import Callable, Iterator
from copy import copy
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

# docs image -> the browser test's artifact that supersedes it when present
SCREENSHOTS = {
    "images/explorer.png": "explorer_1400_top.png",
    "images/explorer_1400.png": "explorer_1400.png",
    "images/explorer_1000.png": "explorer_1000.png",
}


def on_files(files: Files, config: Any) -> Files:
    artifacts = ROOT / "tests" / "artifacts"
    for uri, shot in SCREENSHOTS.items():
        if (artifacts / shot).is_file() and (old := files.get_file_from_path(uri)) is not None:
            files.remove(old)
            files.append(_file(uri, artifacts / shot, config))
    return files


def _file(uri: str, path: Path, config: Any) -> File:
    return File.generated(config, uri, abs_src_path=str(path))


_HEADING_ID = re.compile(r"<h[1-6][^>]*\bid=\"([^\"]+)\"")


@event_priority(-50)  # after Material's search plugin has indexed the page
def on_page_context(context: Any, page: Any, config: Any, nav: Any) -> Any:
    """Point a lesson's table of contents at the ids its headings really have, and index
    the lesson for search without its code cells' source.

    mkdocs-jupyter slugs the contents without a heading's code spans and nbconvert slugs
    the heading with them, so every heading holding `code` got a dead link in the
    contents. The contents list the same headings in the same order.
    """
    if page.file.src_uri.endswith(".ipynb") and page.content:
        ids = _HEADING_ID.findall(page.content)
        items = list(_flatten(page.toc))
        if len(ids) == len(items):
            for item, real in zip(items, ids, strict=False):
                item.id = real
        _index_without_code_input(page, config)
    return context


def _index_without_code_input(page: Any, config: Any) -> None:
    """Replace the lesson's entries in Material's search index by ones made, by Material's
    own indexer, from the page without its code cells' input and prompts.

    Material's ``data-search-exclude`` mark cannot do this: its parser compares elements
    by tag name, so an excluded ``<div>`` stops being excluded at the first ``</div>``
    inside it, and a code cell's input is divs in divs. The page itself is left whole.
    """
    index = getattr(config.plugins.get("material/search"), "search_index", None)
    if index is None:  # no search, or search disabled
        return
    url = page.url
    index.entries = [
        entry
        for entry in index.entries
        if entry["location"] != url and not entry["location"].startswith(url + "#")
    ]
    shadow = copy(page)
    shadow.content = without_code_input(page.content)
    index.add_entry_from_context(shadow)


# nbconvert's markup: a cell is a div of class jp-Cell, a code cell's also of class
# jp-CodeCell; its source (prompt "In [1]:", highlighted code, the copy button's text) is
# in the div of class jp-Cell-inputWrapper, an output's "Out[1]:" in a jp-OutputPrompt.
_CELL = "jp-Cell"
_CODE_CELL = "jp-CodeCell"
_CODE_INPUT = "jp-Cell-inputWrapper"
_OUTPUT_PROMPT = "jp-OutputPrompt"


class _CodeInputSpans(HTMLParser):
    """Where a lesson page's code cells' input (and output prompts) start and end."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self._html = html
        self._line_starts = [0, *(m.end() for m in re.finditer("\n", html))]
        self._in_code_cell = False
        self._start: int | None = None  # where the div being cut starts
        self._depth = 0  # divs open inside it
        self.spans: list[tuple[int, int]] = []
        self.feed(html)
        self.close()

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "div":
            return
        if self._start is not None:
            self._depth += 1
            return
        classes = (dict(attrs).get("class") or "").split()
        if _CELL in classes:
            self._in_code_cell = _CODE_CELL in classes
        elif (_CODE_INPUT in classes and self._in_code_cell) or _OUTPUT_PROMPT in classes:
            self._start, self._depth = self._offset(), 0

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """``<div/>`` opens nothing."""

    def handle_endtag(self, tag: str) -> None:
        if tag != "div" or self._start is None:
            return
        if self._depth:
            self._depth -= 1
            return
        end = self._html.index(">", self._offset()) + 1
        self.spans.append((self._start, end))
        self._start = None


def without_code_input(html: str) -> str:
    """A lesson page's HTML without its code cells' input and its output prompts."""
    kept, at = [], 0
    for start, end in _CodeInputSpans(html).spans:
        kept.append(html[at:start])
        at = end
    kept.append(html[at:])
    return "".join(kept)


def _flatten(items: Any) -> Iterator[Any]:
    for item in items:
        yield item
        yield from _flatten(item.children)


_LESSON_LINK = re.compile(r'href="((?:\./)?(?:[0-9][0-9]_[a-z0-9_]+\.ipynb|README\.md))(#[^"]*)?"')


# a lesson's link to a documentation page, written for the repository (../docs/page.md)
_DOCS_LINK = re.compile(r'href="\.\./docs/([a-z0-9_-]+)\.md(#[^"]*)?"')


def on_post_page(output: str, page: Any, config: Any) -> str:
    """Links between lessons name the notebooks; on the site they are pages."""
    if not page.file.src_uri.startswith("lessons/"):
        return output

    def page_link(match: re.Match[str]) -> str:
        target = match.group(1).replace("README.md", "index.html").replace(".ipynb", ".html")
        return f'href="{target}{match.group(2) or ""}"'

    output = _LESSON_LINK.sub(page_link, output)
    output = _MERMAID_LOADER.sub("", output)
    return _DOCS_LINK.sub(r'href="../\1.html\2"', output)


# nbconvert's template adds a script that imports mermaid from a CDN when a page holds a
# diagram; the lessons hold none, and the site loads nothing from the network.
_MERMAID_LOADER = re.compile(
    r'<script type="module">\s*document\.addEventListener\("DOMContentLoaded"'
    r"(?:(?!</script>).)*?\.jp-Mermaid(?:(?!</script>).)*</script>",
    re.S,
)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    for marker, make in GENERATORS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, make())
    return markdown


# -- the command line --------------------------------------------------------------------------


def cli_reference() -> str:
    """Markdown for every ``toollens`` command: usage, what it does, every option, examples."""
    from toollens.cli import build_parser

    os.environ["COLUMNS"] = "100"  # argparse wraps usage lines to the terminal's width
    parser = build_parser(io.StringIO(), io.StringIO())
    parts = [
        "```text\n" + parser.format_usage().strip() + "\n```\n",
        (parser.description or "") + "\n",
    ]
    for name, sub in subcommands(parser):
        parts.append(f"## `toollens {name}`\n\n{sub.description or ''}\n")
        parts.append("```text\n" + sub.format_usage().strip() + "\n```\n")
        parts.append(arguments_table(sub))
        if sub.epilog:
            parts.append("```text\n" + sub.epilog.strip() + "\n```\n")
    return "\n".join(parts)


def subcommands(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def arguments_table(parser: argparse.ArgumentParser) -> str:
    rows = ["| argument | what it does |", "| --- | --- |"]
    for action in parser._actions:
        if action.help == argparse.SUPPRESS or isinstance(action, argparse._HelpAction):
            continue
        rows.append(f"| {_argument_name(action)} | {_argument_help(action)} |")
    return "\n".join(rows) + "\n"


def _argument_name(action: argparse.Action) -> str:
    if not action.option_strings:
        return f"`{action.metavar or action.dest}`"
    names = ", ".join(action.option_strings)
    if action.nargs == 0:
        return f"`{names}`"
    metavar = action.metavar or (action.dest.upper() if action.choices is None else "")
    return f"`{names} {metavar}`".replace(" `", "`")


def _argument_help(action: argparse.Action) -> str:
    text = (action.help or "").replace("%(default)s", str(action.default))
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        text += " (one of: " + ", ".join(f"`{c}`" for c in action.choices) + ")"
    return text.replace("|", "\\|").replace("\n", " ")


# -- rules --------------------------------------------------------------------------------------


def rules_reference() -> str:
    """Markdown tables of every rule: lint, strict rewrites and refusals, provider rules."""
    from toollens.core.lint import LINT_RULES
    from toollens.core.strict.rules import PROBLEMS, REASONS

    lint = ["| id | severity | what it finds |", "| --- | --- | --- |"]
    lint += [f"| `{r.id}` | {r.severity.value} | {_cell(r.summary)} |" for r in LINT_RULES]
    rewrites = ["| id | what strict mode rewrites |", "| --- | --- |"]
    rewrites += [f"| `{rule.value}` | {_cell(reason)} |" for rule, reason in REASONS.items()]
    refusals = ["| id | what strict mode refuses | what to do |", "| --- | --- | --- |"]
    refusals += [
        f"| `{rule.value}` | {_cell(message)} | {_cell(hint)} |"
        for rule, (message, hint) in PROBLEMS.items()
    ]
    from toollens.toolsets.catalogue import rule_rows

    provider = [
        "| id | severity | when | what it says | source | read on | evidence |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    provider += [
        f"| `{r.id}` | {r.severity} | {r.when} | {_cell(r.summary)} "
        + (
            f"| [{_cell(r.cite.title)}]({r.cite.url}) "
            if r.cite.url
            else f"| {_cell(r.cite.title)} "
        )
        + f"| {r.cite.date}"
        + (f" (re-checked {r.cite.rechecked})" if r.cite.rechecked else "")
        + (f"; **ended {r.cite.ended}**" if r.cite.ended else "")
        + f" | {r.cite.evidence} |"
        for r in rule_rows()
    ]
    return "\n".join(
        [
            "## Lint rules\n",
            *lint,
            "\n## Strict mode: rewrites\n",
            *rewrites,
            "\n## Strict mode: refusals\n",
            *refusals,
            "\n## Provider, request and MCP rules\n",
            "`when`: **always**, only for **strict** tools, once per **request** (summed over "
            "its tools), the MCP specification revisions a rule belongs to, or **mcp** (how "
            "any server's list reaches a client). `read on`: the "
            "day the source was read (an SDK: the version named), when it was re-checked, and "
            "when a later source showed the party had changed (an **ended** rule judges "
            "nothing and stays listed with its evidence); "
            "`toollens check --rules` prints the same list. Evidence: **code** (the party's "
            "own code, run as an oracle where it can be), **docs**, **issue**, **report** "
            "(a third-party write-up: a hint, never a rule alone).\n",
            *provider,
            "\n## Client and budget rules\n",
            "What each MCP client or framework does to a tool (its verdict: a rewrite is a "
            "warning, a lost tool or request an error), and the description limits and token "
            "budgets. With the tables above, this is every rule `toollens check --rules` "
            "lists (`toollens.assess.rules.rule_registry`).\n",
            *_client_and_budget_rows(),
            "",
        ]
    )


def _client_and_budget_rows() -> list[str]:
    from toollens.assess.rules import rule_registry

    rows = [
        "| id | severity | when | what it says | fix | source | read on | evidence |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rule_registry():
        if r.family not in ("client", "budget"):
            continue
        source = f"[{_cell(r.url)}]({r.url})" if r.url.startswith("http") else _cell(r.source)
        rows.append(
            f"| `{r.id}` | {r.severity} | {_cell(r.when)} | {_cell(r.summary)} | {_cell(r.fix)} "
            f"| {source} | {r.date} | {r.evidence} |"
        )
    return rows


def _cell(text: str) -> str:
    text = " ".join(text.split()).replace("|", "\\|")
    return text.replace("[", "\\[").replace("]", "\\]")  # not a link, not a cross-reference


# -- frameworks ---------------------------------------------------------------------------------


def frameworks_table() -> str:
    """The table ``scripts/framework_table.py --write`` measured, as committed.

    The site is built with the docs extra alone, so it imports no framework and nothing
    from ``tests/``; ``tests/frameworks/test_framework_table.py`` keeps the file current.
    """
    return (ROOT / "scripts" / "framework_table.md").read_text(encoding="utf-8")


GENERATORS: dict[str, Callable[[], str]] = {
    "<!-- toollens:cli -->": cli_reference,
    "<!-- toollens:rules -->": rules_reference,
    "<!-- toollens:frameworks -->": frameworks_table,
}
