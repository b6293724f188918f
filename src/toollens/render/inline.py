"""Static views that read well where their stylesheet is stripped.

A saved notebook opened untrusted in JupyterLab, on GitHub, in nbviewer or in VS Code
loses the ``<style>`` element of a static copy (the HTML sanitizer removes it), so the
views would show JSON run together as paragraphs, titles glued to badges, right-aligned
table cells. The sanitizers keep ``style`` attributes with layout properties, so
:func:`inline_layout` copies the layout part of :data:`~toollens.render.css.STYLE` onto
each element as a ``style`` attribute: spacing, display, white space, fonts, alignment,
borders. Colours stay in the stylesheet only: an inline colour would beat a dark theme's.

Only the stylesheet's simple rules are copied (class and tag selectors with descendant
combinators, outside ``@media``); the markup is toollens' own (every text escaped by
:func:`~toollens.render.markup.tag`), so a tag scanner reads it exactly.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from toollens.render.css import STYLE

__all__ = ["LAYOUT_PROPERTIES", "inline_layout"]

#: The properties copied inline: layout only (JupyterLab's sanitizer keeps each of them).
LAYOUT_PROPERTIES = frozenset(
    {
        "display", "margin", "margin-top", "margin-right", "margin-bottom", "margin-left",
        "padding", "padding-top", "padding-right", "padding-bottom", "padding-left",
        "white-space", "font-family", "font-size", "font-weight", "font-style",
        "line-height", "text-align", "vertical-align", "border", "border-top",
        "border-bottom", "border-left", "border-right", "border-radius", "border-collapse",
        "border-spacing", "width", "max-width", "overflow-wrap", "word-break",
    }
)  # fmt: skip

# A grid or flex box without its tracks, gaps and alignment (no sanitizer keeps those) lays
# its items out worse than plain blocks: inline, it is a block.
_DISPLAY = {"grid": "block", "flex": "block", "inline-grid": "inline-block",
            "inline-flex": "inline-block"}  # fmt: skip
_VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr", "col", "source"})
_RAW = frozenset({"style", "script"})
_TOKEN = re.compile(r"<!--.*?-->|<(/?)([a-zA-Z][\w-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>", re.S)
_CLASS = re.compile(r'\sclass="([^"]*)"')
_VAR = re.compile(r"var\(\s*(--[\w-]+)\s*(?:,\s*((?:[^()]|\([^()]*\))*))?\)")


@dataclass(frozen=True)
class _Step:
    tag: str | None
    classes: frozenset[str]

    def matches(self, tag: str, classes: frozenset[str]) -> bool:
        return (self.tag is None or self.tag == tag) and self.classes <= classes


@dataclass(frozen=True)
class _Rule:
    steps: tuple[_Step, ...]
    declarations: tuple[tuple[str, str], ...]
    specificity: tuple[int, int]
    order: int


def inline_layout(html: str) -> str:
    """``html`` (a toollens static view) with the stylesheet's layout rules copied onto each
    element's ``style`` attribute; the ``<style>`` element stays for trusted viewers."""
    out: list[str] = []
    stack: list[tuple[str, frozenset[str]]] = []
    at = 0
    raw: str | None = None
    for token in _TOKEN.finditer(html):
        closing, name, attrs = token.group(1), (token.group(2) or "").lower(), token.group(3)
        if raw is not None and not (closing and name == raw):
            continue  # inside <style> or <script>: copied as it is
        out.append(html[at : token.start()])
        at = token.end()
        if token.group(2) is None:  # a comment
            out.append(token.group(0))
        elif closing:
            raw = None
            _pop(stack, name)
            out.append(token.group(0))
        else:
            out.append(_start_tag(name, attrs or "", stack))
            if name in _RAW:
                raw = name
    out.append(html[at:])
    return "".join(out)


def _pop(stack: list[tuple[str, frozenset[str]]], name: str) -> None:
    for i in range(len(stack) - 1, -1, -1):
        if stack[i][0] == name:
            del stack[i:]
            return


def _start_tag(name: str, attrs: str, stack: list[tuple[str, frozenset[str]]]) -> str:
    found = _CLASS.search(attrs)
    classes = frozenset(found.group(1).split()) if found else frozenset()
    if not attrs.rstrip().endswith("/") and name not in _VOID:
        stack.append((name, classes))
    declared: dict[str, str] = {}
    for rule in _matching(stack if name not in _VOID else [*stack, (name, classes)]):
        declared.update(rule.declarations)
    if not declared or " style=" in attrs:
        return f"<{name}{attrs}>"
    style = "; ".join(f"{k}: {v}" for k, v in declared.items())
    head, slash = (attrs[:-1], "/") if attrs.rstrip().endswith("/") else (attrs, "")
    return f'<{name}{head.rstrip()} style="{style}"{slash}>'


def _matching(stack: list[tuple[str, frozenset[str]]]) -> list[_Rule]:
    tag, classes = stack[-1]
    index = _index()
    candidates = {*index.get(tag, ()), *(r for c in classes for r in index.get("." + c, ()))}
    hits = [r for r in candidates if r.steps[-1].matches(tag, classes) and _ancestors(r, stack)]
    return sorted(hits, key=lambda r: (r.specificity, r.order))


@functools.cache
def _index() -> dict[str, tuple[_Rule, ...]]:
    """Each rule under one key its element must have: a class (``.name``) or its tag."""
    keyed: dict[str, list[_Rule]] = {}
    for rule in _rules():
        last = rule.steps[-1]
        key = "." + min(last.classes) if last.classes else str(last.tag)
        keyed.setdefault(key, []).append(rule)
    return {k: tuple(v) for k, v in keyed.items()}


def _ancestors(rule: _Rule, stack: list[tuple[str, frozenset[str]]]) -> bool:
    """Whether the rule's other steps match ancestors of the element, in order."""
    wanted = list(rule.steps[:-1])
    for tag, classes in reversed(stack[:-1]):
        if wanted and wanted[-1].matches(tag, classes):
            wanted.pop()
    return not wanted


@functools.cache
def _rules() -> tuple[_Rule, ...]:
    text = re.sub(r"/\*.*?\*/", "", STYLE, flags=re.S)
    text = _without_at_rules(text)
    variables = _variables(text)
    rules: list[_Rule] = []
    for order, (selectors, body) in enumerate(re.findall(r"([^{}]+)\{([^{}]*)\}", text)):
        declarations = tuple(_declarations(body, variables))
        if not declarations:
            continue
        for selector in selectors.split(","):
            steps = _steps(selector.strip())
            if steps:
                ids = sum(len(s.classes) for s in steps), sum(s.tag is not None for s in steps)
                rules.append(_Rule(steps, declarations, ids, order))
    return tuple(rules)


def _without_at_rules(text: str) -> str:
    """The stylesheet without its ``@media`` (and other ``@``) blocks."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "@":
            i, level = text.index("{", i) + 1, 1
            while level:
                level += {"{": 1, "}": -1}.get(text[i], 0)
                i += 1
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def _variables(text: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+)\s*:\s*([^;{}]+);", text))


def _declarations(body: str, variables: dict[str, str]) -> list[tuple[str, str]]:
    found = []
    for part in body.split(";"):
        prop, sep, value = part.partition(":")
        prop, value = prop.strip().lower(), " ".join(value.split())
        if not sep or prop not in LAYOUT_PROPERTIES or not value:
            continue
        resolved = _resolve(value, variables)
        if resolved is None:
            continue
        if prop == "display":  # grid and flex need their other properties, which go
            resolved = _DISPLAY.get(resolved, resolved)
        found.append((prop, resolved.replace('"', "'")))
    return found


def _resolve(value: str, variables: dict[str, str], depth: int = 0) -> str | None:
    """``value`` with every ``var()`` replaced by the stylesheet's value or the fallback
    (a sanitizer drops custom properties); ``None`` when one has neither."""
    while "var(" in value:
        found = _VAR.search(value)
        if found is None or depth > 10:
            return None
        name, fallback = found.group(1), found.group(2)
        given = fallback if fallback is not None else variables.get(name)
        if given is None:
            return None
        inner = _resolve(given.strip(), variables, depth + 1)
        if inner is None:
            return None
        value = value[: found.start()] + inner + value[found.end() :]
    return value


def _steps(selector: str) -> tuple[_Step, ...]:
    """A selector's steps, or ``()`` for one this copier does not read (pseudo-classes,
    attribute selectors, child or sibling combinators, ``*``)."""
    if not selector or re.search(r"[:\[\]>+~*#]", selector):
        return ()
    steps = []
    for part in selector.split():
        found = re.fullmatch(r"([a-z][a-z0-9]*)?((?:\.[\w-]+)*)", part)
        if found is None or not part:
            return ()
        classes = frozenset(c for c in found.group(2).split(".") if c)
        steps.append(_Step(found.group(1), classes))
    return tuple(steps)
